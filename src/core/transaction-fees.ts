/** The two fees of an EIP-1559 transaction, in wei per gas. */
export interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

/** How long a transaction waits unmined before it is replaced at higher fees (the settlement sender's default and the operator's). */
export const REPLACE_AFTER_MS = 10_000;
/** How much a replacement raises both fees over the version it replaces, in percent (nodes ask at least 10%). */
export const FEE_BUMP_PERCENT = 20;

/**
 * How far above the market's estimate a replacement may raise its fees. A transaction pooled at
 * three times what the market asks is not waiting for a higher fee (an earlier nonce is missing,
 * or the node does not pass it on), and raising it by a bump at every replacement for as long as
 * it waits would pay without end: at 20% every 10 s, 56,000 times the fee after ten minutes.
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
