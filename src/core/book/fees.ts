import { complementPrice, PRICE_ONE } from '../money.ts';

const BPS_SCALE = 10_000n;
const DIVISOR = BPS_SCALE * PRICE_ONE;

/**
 * The fee on one fill (DESIGN.md "Exact amounts"): bps × min(p, 1 − p) × size, rounded down to a
 * base unit, with p the party's own execution price. Charged on the cheaper side of the price so a
 * trade at 0.95 pays what one at 0.05 pays: the two are the same trade seen from either token.
 */
export function feeBaseUnits(feeRateBps: number, priceMicros: number, sizeBaseUnits: bigint): bigint {
  // Most makers pay no fee; skipping the bigint work for them is measurable on the matching path.
  if (feeRateBps === 0) return 0n;
  const other = complementPrice(priceMicros);
  const edge = priceMicros < other ? priceMicros : other;
  // bps × edge stays below 10^10, exact as a number, so one BigInt conversion suffices.
  return (BigInt(feeRateBps * edge) * sizeBaseUnits) / DIVISOR;
}
