import { type Hex, keccak256, type LocalAccount, type PublicClient } from 'viem';
import type { TxRecord, TxVersion } from './types.ts';

export interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

export const feesOf = (version: TxVersion): Fees => ({ maxFeePerGas: BigInt(version.maxFeePerGas), maxPriorityFeePerGas: BigInt(version.maxPriorityFeePerGas) });

/**
 * The fees of a replacement: both raised by `bumpPercent` over the last version (what a node asks
 * to replace a pooled transaction), or today's estimate if higher, and never above `cap`.
 */
export function bumpedFees(last: Fees, current: Fees, bumpPercent: number, cap: bigint | undefined): Fees {
  const raise = (value: bigint) => (value * BigInt(100 + bumpPercent) + 99n) / 100n;
  const atMost = (value: bigint) => (cap !== undefined && value > cap ? cap : value);
  const maxFeePerGas = atMost(max(raise(last.maxFeePerGas), current.maxFeePerGas));
  const maxPriorityFeePerGas = min(max(raise(last.maxPriorityFeePerGas), current.maxPriorityFeePerGas), maxFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** Signs `record` at `fees`. Deterministic: the same record and fees give the same hash, so a persisted version can be rebroadcast. */
export async function signVersion(account: LocalAccount, chainId: number, record: TxRecord, fees: Fees): Promise<{ version: TxVersion; raw: Hex }> {
  if (record.nonce === null) throw new Error('a watched transaction is not ours to sign');
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId,
    nonce: record.nonce,
    to: record.to,
    data: record.data,
    gas: BigInt(record.gas),
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  return { version: { hash: keccak256(raw), maxFeePerGas: String(fees.maxFeePerGas), maxPriorityFeePerGas: String(fees.maxPriorityFeePerGas) }, raw };
}

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
