import { DISPLAY_AMOUNT_PATTERN } from '../contract/formats.ts';

/**
 * The one vocabulary of prices and amounts (this file, not core/prices.ts, which is about the
 * reference prices of price-target markets, 8 decimals).
 *
 * Collateral and token amounts at the API edge: bigint base units (6 decimals) inside, decimal
 * strings in display units outside ("12.5" = 12,500,000). Never through a float.
 */
export const AMOUNT_DECIMALS = 6;

/** Base units per display unit of collateral and of outcome tokens (6 decimals). */
export const BASE_UNITS_PER_UNIT = 10n ** BigInt(AMOUNT_DECIMALS);

/**
 * 1.0 in price units. A price (order limit, trade, book level) is an integer of millionths of
 * collateral per token. It is a different concept from an amount, hence its own name, but it is
 * defined from BASE_UNITS_PER_UNIT on purpose: a price in millionths is the collateral base units
 * one whole token costs, so `price × tokens / PRICE_ONE` is collateral in base units, and the two
 * must move together if the decimals ever change. The book keeps prices as JS numbers (exact, far
 * below 2^53): `Number(PRICE_ONE)` there.
 */
export const PRICE_ONE = BASE_UNITS_PER_UNIT;
const PRICE_ONE_NUMBER = Number(PRICE_ONE);

/**
 * The price of the other token of the same market (one book per market): 1 − price. The maker of a
 * cross-token fill trades the complement of the taker's price; a mirrored book level sits there.
 */
export function complementPrice(priceMicros: number): number;
export function complementPrice(priceMicros: bigint): bigint;
export function complementPrice(priceMicros: number | bigint): number | bigint {
  return typeof priceMicros === 'bigint' ? PRICE_ONE - priceMicros : PRICE_ONE_NUMBER - priceMicros;
}

/** `value / 10^decimals` as a decimal string without trailing zeros: (1230, 4) → "0.123". */
export function formatFixed(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** `value / 10^decimals` with exactly `decimals` places: (600_000, 6) → "0.600000". */
export function formatFixedPadded(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
}

/**
 * The formatters of this family, one per unit: amounts (base units) and prices (millionths) as
 * decimal strings, or as JSON numbers for the SPEC fields typed number — always parsed from the
 * exact decimal string, never computed in floating point.
 */

/** Millionths (prices, price distances, multipliers) as a decimal without trailing zeros: 550_000 → "0.55". */
export function formatMillionths(value: bigint | number): string {
  return formatFixed(BigInt(value), AMOUNT_DECIMALS);
}

/** A price in millionths as a decimal string: 550_000 → "0.55". */
export function formatPrice(priceMicros: bigint | number): string {
  return formatMillionths(priceMicros);
}

/** A price as a JSON number (SPEC fields typed number), from its exact decimal. */
export function priceToNumber(priceMicros: bigint | number): number {
  return Number(formatPrice(priceMicros));
}

/** A price in cents as a JSON number: 550_000 → 55, 123_456 → 12.3456. */
export function priceToCents(priceMicros: bigint | number): number {
  return Number(formatFixed(BigInt(priceMicros), AMOUNT_DECIMALS - 2));
}

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

/** Base units (or millionths of a price) with exactly six places: 600_000n → "0.600000" (rewards amounts, TradeActivity price and size). */
export function formatUnitsPadded(baseUnits: bigint): string {
  return formatFixedPadded(baseUnits, AMOUNT_DECIMALS);
}

/** Base units as a JSON number of USD rounded half-up to cents: 1_234_567n → 1.23. */
export function unitsToCentsNumber(baseUnits: bigint): number {
  const perCent = BASE_UNITS_PER_UNIT / 100n;
  return Number(formatFixed((baseUnits + perCent / 2n) / perCent, 2));
}
