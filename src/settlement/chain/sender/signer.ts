import { type Hex, type LocalAccount, parseSignature, type PublicClient, serializeTransaction, type TransactionSerializableEIP1559 } from 'viem';
import { keccak256Hex } from '../../../core/keccak.ts';
import type { Fees } from '../../../core/transaction-fees.ts';
import type { TxRecord, TxVersion } from './types.ts';

export const feesOf = (version: TxVersion): Fees => ({ maxFeePerGas: BigInt(version.maxFeePerGas), maxPriorityFeePerGas: BigInt(version.maxPriorityFeePerGas) });

/**
 * Signs `record` at `fees`. Deterministic: the same record and fees give the same hash, so a
 * persisted version can be rebroadcast. The signing hash and the transaction's hash are taken
 * with the WebAssembly keccak (core/keccak.ts), not viem's `signTransaction`: a batch's calldata
 * runs to tens of kilobytes, and hashing it twice in JavaScript took more of the event loop than
 * the rest of the send.
 */
export async function signVersion(account: LocalAccount, chainId: number, record: TxRecord, fees: Fees): Promise<{ version: TxVersion; raw: Hex }> {
  if (record.nonce === null) throw new Error('a watched transaction is not ours to sign');
  if (account.sign === undefined) throw new Error('a settlement account signs hashes (a local private key)');
  const transaction: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId,
    nonce: record.nonce,
    to: record.to,
    data: record.data,
    gas: BigInt(record.gas),
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  };
  const signature = await account.sign({ hash: hashOfHex(serializeTransaction(transaction)) });
  const raw = serializeTransaction(transaction, parseSignature(signature));
  return { version: { hash: hashOfHex(raw), maxFeePerGas: String(fees.maxFeePerGas), maxPriorityFeePerGas: String(fees.maxPriorityFeePerGas) }, raw };
}

/**
 * A version already persisted, signed again to broadcast it unchanged: signing is deterministic,
 * so the hash must be one of the record's versions' (else nothing is sent).
 */
export async function signedAgain(account: LocalAccount, chainId: number, record: TxRecord, fees: Fees): Promise<Hex> {
  const { version, raw } = await signVersion(account, chainId, record, fees);
  if (!record.versions.some((v) => v.hash === version.hash)) throw new Error(`re-signing nonce ${record.nonce} gave an unknown hash ${version.hash}`);
  return raw;
}

const hashOfHex = (hex: Hex): Hex => keccak256Hex(Buffer.from(hex.slice(2), 'hex'));

/** Fee estimates, read at most once per `maxAgeMs`: a burst of batches shares one. */
export function feeOracle(client: PublicClient, maxAgeMs: number, now: () => number) {
  let cached: { fees: Fees; atMs: number } | null = null;
  return async (): Promise<Fees> => {
    if (cached === null || now() - cached.atMs > maxAgeMs) {
      const { maxFeePerGas, maxPriorityFeePerGas } = await client.estimateFeesPerGas();
      cached = { fees: { maxFeePerGas, maxPriorityFeePerGas }, atMs: now() };
    }
    return cached.fees;
  };
}
