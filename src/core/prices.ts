import type { TemplatePeriod } from '../contract/formats.ts';
import { formatFixed } from './money.ts';

/**
 * Reference prices of price-target markets (EXTENSIONS.md section 13), pure. A price is a bigint
 * of 10^-8 units (Pyth's usual exponent for crypto pairs): "97123.45" = 9_712_345_000_000n. Never
 * a float; decimal strings only at the API edge.
 */
export const PRICE_DECIMALS = 8;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);
/** Stored in a bigint column: refuse anything a signed 64-bit integer cannot hold. */
export const MAX_PRICE_UNITS = 2n ** 63n - 1n;

const PRICE_PATTERN = /^(0|[1-9][0-9]{0,10})(\.([0-9]{1,8}))?$/;

/** A positive price decimal (at most 8 decimals) as price units, or undefined when it is not one. */
export function parsePrice(text: string): bigint | undefined {
  const match = PRICE_PATTERN.exec(text);
  if (!match) return undefined;
  const units = BigInt(match[1]!) * PRICE_SCALE + BigInt((match[3] ?? '').padEnd(PRICE_DECIMALS, '0'));
  return units > 0n && units <= MAX_PRICE_UNITS ? units : undefined;
}

export const formatPrice = (units: bigint): string => formatFixed(units, PRICE_DECIMALS);

/**
 * A provider's fixed-point price (mantissa × 10^exponent, as Pyth sends it) in price units;
 * digits finer than 10^-8 are cut (toward zero). Undefined for a non-positive mantissa.
 */
export function priceFromMantissa(mantissa: bigint, exponent: number): bigint | undefined {
  if (mantissa <= 0n || !Number.isInteger(exponent) || Math.abs(exponent) > 30) return undefined;
  const shift = exponent + PRICE_DECIMALS;
  const units = shift >= 0 ? mantissa * 10n ** BigInt(shift) : mantissa / 10n ** BigInt(-shift);
  return units > 0n && units <= MAX_PRICE_UNITS ? units : undefined;
}

/** Outcome 1 ("Up", "Yes") wins when the price at resolveAt is at or above the target. */
export const priceTargetOutcome = (priceUnits: bigint, targetUnits: bigint): 'YES' | 'NO' => (priceUnits >= targetUnits ? 'YES' : 'NO');

export const PERIOD_MS: Record<TemplatePeriod, number> = { '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

/**
 * The periods a template should have published at `nowMs`: every period that has not ended and
 * starts at most `lead` periods after the current one, as indices from `firstStartMs`. Periods
 * are fixed lengths of UTC time (a day is 24 hours whatever the display zone).
 */
export function duePeriods(firstStartMs: number, periodMs: number, lead: number, nowMs: number): number[] {
  const current = Math.floor((nowMs - firstStartMs) / periodMs);
  const first = Math.max(0, current);
  const last = current + lead;
  const out: number[] = [];
  for (let k = first; k <= last; k++) out.push(k);
  return out;
}

/**
 * A market's name: the pair and the period in the display zone, e.g.
 * "BTC/USD up or down, Nov 27, 14:00-15:00 EST" (a daily period: "BTC/USD up or down, Nov 27, 2026 UTC").
 */
export function periodMarketName(pair: string, startMs: number, endMs: number, timeZone: string, periodMs: number): string {
  const date = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', ...(periodMs >= PERIOD_MS['1d'] ? { year: 'numeric' } : {}) }).format(startMs);
  const zone = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(startMs).find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  if (periodMs >= PERIOD_MS['1d']) return `${pair} up or down, ${date} ${zone}`;
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${pair} up or down, ${date}, ${time.format(startMs)}-${time.format(endMs)} ${zone}`;
}
