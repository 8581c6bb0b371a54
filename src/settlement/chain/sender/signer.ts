import { type Hex, type LocalAccount, parseSignature, type PublicClient, serializeTransaction, type TransactionSerializableEIP1559 } from 'viem';
import { keccak256Hex } from '../../../core/keccak.ts';
import type { TxRecord, TxVersion } from './types.ts';

export interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

export const feesOf = (version: TxVersion): Fees => ({ maxFeePerGas: BigInt(version.maxFeePerGas), maxPriorityFeePerGas: BigInt(version.maxPriorityFeePerGas) });

/**
 * How far above the market's estimate a replacement may raise its fees. A transaction pooled at
 * three times what the market asks is not waiting for a higher fee (an earlier nonce is missing,
 * or the node does not pass it on), and raising it by 20% every `replaceAfterMs` for as long as
 * it waits would pay without end: at the defaults, 56,000 times the fee after ten minutes.
 */
const MARKET_CEILING_MULTIPLE = 3n;
/** What a node asks of a replacement over the pooled version, in percent of each fee (geth's price bump). */
const NODE_MIN_BUMP_PERCENT = 10;

/** The market's estimate, never above `cap`: the fees of a new transaction. */
export function cappedFees(current: Fees, cap: bigint | undefined): Fees {
  const maxFeePerGas = cap !== undefined && current.maxFeePerGas > cap ? cap : current.maxFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas: min(current.maxPriorityFeePerGas, maxFeePerGas) };
}

/**
 * The fees of a replacement: both raised by `bumpPercent` over the last version (what a node asks
 * to replace a pooled transaction), or the market's estimate if higher, and never above the
 * ceiling (`cap`, and three times the estimate). Null when the ceiling leaves no room for a
 * replacement a node would take: the last version is then sent again as it is.
 */
export function replacementFees(last: Fees, current: Fees, bumpPercent: number, cap: bigint | undefined): Fees | null {
  const marketCeiling = current.maxFeePerGas * MARKET_CEILING_MULTIPLE;
  const ceiling = cap !== undefined && cap < marketCeiling ? cap : marketCeiling;
  const maxFeePerGas = min(max(raised(last.maxFeePerGas, bumpPercent), current.maxFeePerGas), ceiling);
  const maxPriorityFeePerGas = min(max(raised(last.maxPriorityFeePerGas, bumpPercent), current.maxPriorityFeePerGas), maxFeePerGas);
  // The priority fee then rises by the node's step too: it rose by the bump or up to the fee cap, which did.
  return maxFeePerGas >= raised(last.maxFeePerGas, NODE_MIN_BUMP_PERCENT) ? { maxFeePerGas, maxPriorityFeePerGas } : null;
}

const raised = (value: bigint, percent: number) => (value * BigInt(100 + percent) + 99n) / 100n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

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
