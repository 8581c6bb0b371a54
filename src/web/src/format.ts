import { formatUnits, parseUnits, type Order } from '../../client/index.ts';

/**
 * Display of the API's exact decimal strings. Amounts never pass through a float: they are
 * parsed to bigint base units with the SDK's units helpers and printed back from there.
 */

/**
 * A decimal string (possibly signed) as base units; undefined when it is not one. A few API fields
 * are JSON numbers (order price and size, portfolio value): printed with 6 decimals, never in
 * exponent form.
 */
export function units(text: string | number | null | undefined): bigint | undefined {
  if (text === null || text === undefined) return undefined;
  const value = typeof text === 'number' ? text.toFixed(6) : text;
  const negative = value.startsWith('-');
  const parsed = parseUnits(negative ? value.slice(1) : value);
  return parsed === undefined ? undefined : negative ? -parsed : parsed;
}

/** Thousands separated by commas: "1234567" → "1,234,567". */
export const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Base units as "1,234.50": every significant decimal kept, at least `minDecimals` of them (shares). */
export function amount(baseUnits: bigint, minDecimals = 2): string {
  const negative = baseUnits < 0n;
  const [whole, fraction = ''] = formatUnits(negative ? -baseUnits : baseUnits).split('.');
  const decimals = fraction.padEnd(minDecimals, '0');
  return `${negative ? '−' : ''}${group(whole!)}${decimals ? `.${decimals}` : ''}`;
}

/** `baseUnits` to the nearest multiple of `step`, halves away from zero (what "to the cent" means to a reader). */
function roundTo(baseUnits: bigint, step: bigint): bigint {
  const magnitude = baseUnits < 0n ? -baseUnits : baseUnits;
  const rounded = ((magnitude + step / 2n) / step) * step;
  return baseUnits < 0n ? -rounded : rounded;
}

const CENT = 10_000n;

/**
 * The app's one money formatter: base units of USDC as "$1,234.57" or "−$1.20", to the cent. The
 * server's amounts keep 6 decimals (a reserved fee of $0.008, a balance of $995.992); a trader
 * reads cents, so every dollar amount on screen goes through here.
 */
export function money(baseUnits: bigint): string {
  const cents = roundTo(baseUnits, CENT);
  const text = `$${amount(cents < 0n ? -cents : cents)}`;
  return cents < 0n ? `−${text}` : text;
}

/** "$1,234.50" from a USD decimal string (or a number the API sends); "—" when there is none. */
export function usd(text: string | number | null | undefined): string {
  const value = units(text);
  return value === undefined ? '—' : money(value);
}

/** A count with its noun: "1 market", "3 markets". */
export const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Shares from a decimal string: "12.5" → "12.50", "21.129" → "21.12" (sharesOf). */
export function shares(text: string | number | null | undefined): string {
  const value = units(text);
  return value === undefined ? '—' : sharesOf(value);
}

const HUNDREDTH = 10_000n;

/**
 * Shares in base units, to the hundredth everywhere (book, ticket, positions), so a column never
 * mixes "100.00" with "21.1234". Cut toward zero, never rounded up: a holding never reads larger
 * than it is (the Sell link carries the exact amount). A non-zero amount below a hundredth is
 * "<0.01", not an empty-looking "0.00".
 */
export function sharesOf(baseUnits: bigint): string {
  const magnitude = baseUnits < 0n ? -baseUnits : baseUnits;
  if (magnitude > 0n && magnitude < HUNDREDTH) return '<0.01';
  return amount((baseUnits / HUNDREDTH) * HUNDREDTH);
}

/**
 * A fee, exact (fees are often fractions of a cent: 20 bps of 21 shares at 45¢ is $0.0189), so a
 * fee is never shown as "$0.00"; no fee at all is "None".
 */
export function fee(baseUnits: bigint): string {
  return baseUnits === 0n ? 'None' : `$${amount(baseUnits)}`;
}

/** A price (a decimal string, or a number the API sends) as cents on its market's tick: centsOf. */
export function cents(text: string | number | null | undefined, tickSize?: string): string {
  const value = units(text);
  return value === undefined ? '—' : centsOf(value, tickSize);
}

/** The finest tick a market may have (EXTENSIONS.md section 11: 0.0001), in millionths of a dollar. */
const FINEST_TICK = 100n;

/**
 * The app's one price formatter: a price in millionths of a dollar as cents, with as many decimals
 * of a cent as its market's tick needs: whole cents on a 0.01 tick (41¢), a tenth on 0.001 (41.5¢,
 * 42.0¢), a hundredth on 0.0001 (41.55¢, 41.50¢), so a price on the tick is never rounded to
 * another (41.55¢ read 41.6¢ at a tenth of a cent) and a column's prices have as many decimals.
 * Values between the ticks (the current price, a midpoint, is half a tick off; an average price,
 * fees included, anywhere) are rounded to a tenth of the tick, halves away from zero, and show that
 * one digit more when it is not 0 (a midpoint of 41¢ and 42¢ is 41.5¢; an average of 0.412345 on a
 * cent tick 41.2¢, on 0.0001 41.235¢). Without the tick (a market not known), a price shows the
 * decimals it has, to a tenth of the finest tick: never rounded, never padded.
 */
export function centsOf(micros: bigint, tickSize?: string): string {
  const tick = tickSize === undefined ? undefined : parseUnits(tickSize);
  const rounded = roundTo(micros, (tick ?? FINEST_TICK) / 10n);
  // The tick in cents ("0.01" for 0.0001) has as many decimals as its prices need.
  const decimals = tick === undefined ? 0 : (formatUnits(tick * 100n).split('.')[1]?.length ?? 0);
  return `${amount(rounded * 100n, decimals)}¢`;
}

/**
 * The price column of an activity row. The API's price is a trade's for BUY and SELL; for SPLIT and
 * MERGE it is "1", the dollar a pair of outcomes is worth, no price anything traded at (it read
 * "100¢"); for REDEEM it is what the redeem paid per share burned, both outcomes' shares counted.
 */
export function activityPrice(type: string, price: string, tickSize?: string): string {
  if (type === 'SPLIT' || type === 'MERGE') return '—';
  return type === 'REDEEM' ? `paid ${cents(price)} a share` : cents(price, tickSize);
}

/** A price in base units as a whole-percent chance: 405_000n → "41%"; "<1%" and ">99%" at the ends. */
export function percent(priceBaseUnits: bigint): string {
  const value = (priceBaseUnits + 5_000n) / 10_000n;
  return value < 1n && priceBaseUnits > 0n ? '<1%' : value > 99n && priceBaseUnits < 1_000_000n ? '>99%' : `${value}%`;
}

/** `part` of `whole` as a signed percentage to a tenth: "+12.5%", "−3.0%"; "—" of nothing. */
export function signedPercent(part: bigint, whole: bigint): string {
  if (whole <= 0n) return '—';
  const tenths = (part * 1_000n + (part < 0n ? -whole / 2n : whole / 2n)) / whole;
  const magnitude = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? '−' : '+'}${magnitude / 10n}.${magnitude % 10n}%`;
}

export function date(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/** A series' period in words: "15 minutes", "hour", "4 hours", "day". */
export function period(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes % 1_440 === 0) return minutes === 1_440 ? 'day' : `${minutes / 1_440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** What an SDK or server error says, in words for a trader. */
export function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) return `${String(error.message)} (${String(error.code)})`;
  return error instanceof Error ? error.message : String(error);
}

/** The server's answer about an order, in words; its price on `tickSize`, its market's tick, when known (centsOf). */
export function describeOrder(order: Order, tickSize?: string): string {
  // A market order's price is its worst acceptable one, not what it filled at (each fill is announced apart).
  const limit = order.orderType === 'GTC' ? 'at' : order.side === 0 ? 'up to' : 'down to';
  const what = `${order.side === 0 ? 'Buy' : 'Sell'} ${shares(order.amount)} ${order.outcome} ${limit} ${cents(order.price, tickSize)}`;
  const filled = order.matchedAmount > 0 ? `, ${shares(order.matchedAmount)} filled` : '';
  switch (order.status) {
    case 'PENDING': return `${what}: resting in the book${filled}.`;
    case 'EXECUTED': return `${what}: filled.`;
    case 'EXECUTING': return `${what}: matched${filled}, settling.`;
    case 'CANCELLED': return `${what}: cancelled${filled || ' (nothing filled)'}.`;
    default: return `${what}: ${order.status.toLowerCase()}.`;
  }
}

/** A batch redeem's or merge's answer, in words: "Redeem: 2 markets, 1 skipped (not-redeemable)". */
export function describeBatch(label: string, result: { included: string[]; excluded: { reason: string }[] }): string {
  const skipped = result.excluded.length ? `, ${result.excluded.length} skipped (${result.excluded.map((e) => e.reason).join(', ')})` : '';
  return `${label}: ${counted(result.included.length, 'market')}${skipped}`;
}
