import { formatFixed, PRICE_ONE } from '../money.ts';

/**
 * Exact price arithmetic of an order, in bigint rationals: a price is collateral / tokens, both in
 * base units, and never passes through a float.
 */
export type TickSize = '0.1' | '0.01' | '0.001' | '0.0001';


/** The number of decimals of a tick: 0.01 → 2. A tick is always 10^-d. */
export function tickDecimals(tickSize: TickSize): number {
  return tickSize.length - 2;
}

export interface RationalPrice {
  /** Collateral base units. */
  readonly numerator: bigint;
  /** Outcome-token base units; always positive. */
  readonly denominator: bigint;
}

/** True when 0 < price < 1. */
export function isStrictlyBetweenZeroAndOne(price: RationalPrice): boolean {
  return price.numerator > 0n && price.numerator < price.denominator;
}

/** The price in ticks when it is an exact multiple of 10^-d, else undefined. */
export function priceInTicks(price: RationalPrice, decimals: number): bigint | undefined {
  const scaled = price.numerator * 10n ** BigInt(decimals);
  return scaled % price.denominator === 0n ? scaled / price.denominator : undefined;
}

/** The valid prices on both sides of an off-tick price, inside (0, 1), as display strings. */
export function nearestTickPrices(price: RationalPrice, decimals: number): string[] {
  const ticksPerUnit = 10n ** BigInt(decimals);
  const below = (price.numerator * ticksPerUnit) / price.denominator;
  return [below, below + 1n].filter((ticks) => ticks > 0n && ticks < ticksPerUnit).map((ticks) => formatFixed(ticks, decimals));
}

/** The price in millionths, exact for any price on a tick of at most 6 decimals. */
export function priceMicrosOf(price: RationalPrice): bigint {
  return (price.numerator * PRICE_ONE) / price.denominator;
}

/**
 * A rational as a decimal string for messages: exact when it ends within `maxDecimals` places,
 * otherwise cut there and marked with "…" (1/3 → "0.333333333333…").
 */
export function formatRational(price: RationalPrice, maxDecimals = 12): string {
  const scale = 10n ** BigInt(maxDecimals);
  const scaled = price.numerator * scale;
  const text = formatFixed(scaled / price.denominator, maxDecimals);
  return scaled % price.denominator === 0n ? text : `${text}…`;
}
