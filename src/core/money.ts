import { DISPLAY_AMOUNT_PATTERN } from '../contract/formats.ts';
import { BASE_UNITS_PER_UNIT, formatFixed } from './orders/order-price.ts';

/**
 * Collateral and token amounts at the API edge: bigint base units (6 decimals) inside, decimal
 * strings in display units outside ("12.5" = 12,500,000). Never through a float.
 */
export const AMOUNT_DECIMALS = 6;

const DECIMAL = new RegExp(DISPLAY_AMOUNT_PATTERN);

/** Base units as a display decimal without trailing zeros: 12_500_000n → "12.5", 0n → "0". */
export function formatUnits(baseUnits: bigint): string {
  return formatFixed(baseUnits, AMOUNT_DECIMALS);
}

/**
 * A non-negative display decimal as base units, or undefined when it is not one: more than six
 * decimals, a sign, an exponent or anything but digits is refused rather than rounded.
 */
export function parseUnits(text: string): bigint | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const fraction = (match[3] ?? '').padEnd(AMOUNT_DECIMALS, '0');
  return BigInt(match[1]!) * BASE_UNITS_PER_UNIT + BigInt(fraction);
}

/**
 * A USD bound sent as a JSON or query number (a filter, not an amount that moves) in base units,
 * rounded to the nearest base unit; undefined when negative, not finite or beyond 10^15 USD.
 */
export function unitsFromNumber(value: number): bigint | undefined {
  if (!Number.isFinite(value) || value < 0 || value > 1e15) return undefined;
  return parseUnits(value.toFixed(AMOUNT_DECIMALS));
}

/** Base units as a JSON number of display units, for the few SPEC fields typed number. */
export function unitsToNumber(baseUnits: bigint): number {
  return Number(formatUnits(baseUnits));
}
