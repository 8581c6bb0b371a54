import { formatUnits, parseUnits, type Order } from '../../client/index.ts';

/**
 * Display of the API's exact decimal strings. Amounts never pass through a float: they are
 * parsed to bigint base units with the SDK's units helpers and printed back from there.
 */

/** A decimal string (possibly signed) as base units; undefined when it is not one. */
export function units(text: string | number | null | undefined): bigint | undefined {
  if (text === null || text === undefined) return undefined;
  const value = String(text);
  const negative = value.startsWith('-');
  const parsed = parseUnits(negative ? value.slice(1) : value);
  return parsed === undefined ? undefined : negative ? -parsed : parsed;
}

/** Thousands separated by commas: "1234567" → "1,234,567". */
export const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Base units as "1,234.5" with at least `minDecimals` decimals and every significant one kept. */
export function amount(baseUnits: bigint, minDecimals = 2): string {
  const negative = baseUnits < 0n;
  const [whole, fraction = ''] = formatUnits(negative ? -baseUnits : baseUnits).split('.');
  const decimals = fraction.padEnd(minDecimals, '0');
  return `${negative ? '−' : ''}${group(whole!)}${decimals ? `.${decimals}` : ''}`;
}

/** "$1,234.50" from a USD decimal string. */
export function usd(text: string | number | null | undefined): string {
  const value = units(text);
  if (value === undefined) return '—';
  return value < 0n ? `−$${amount(-value)}` : `$${amount(value)}`;
}

/** Shares from a decimal string: "12.5" → "12.50". */
export function shares(text: string | number | null | undefined): string {
  const value = units(text);
  return value === undefined ? '—' : amount(value);
}

/** A price as cents: "0.425" → "42.5¢". */
export function cents(text: string | number | null | undefined): string {
  const value = units(text);
  return value === undefined ? '—' : centsOf(value);
}

/** A price in base units (millionths) as cents: 425_000n → "42.5¢". */
export function centsOf(baseUnits: bigint): string {
  return `${formatUnits(baseUnits * 100n)}¢`;
}

/** A chance (the API's `chance`, a display number) as a whole percentage. */
export function percent(chance: number): string {
  const value = Math.round(chance * 100);
  return value < 1 && chance > 0 ? '<1%' : value > 99 && chance < 1 ? '>99%' : `${value}%`;
}

export function date(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** What an SDK or server error says, in words for a trader. */
export function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) return `${String(error.message)} (${String(error.code)})`;
  return error instanceof Error ? error.message : String(error);
}

/** The server's answer about an order, in words. */
export function describeOrder(order: Order): string {
  const what = `${order.side === 0 ? 'Buy' : 'Sell'} ${order.amount} ${order.outcome} at ${cents(String(order.price))}`;
  const filled = order.matchedAmount > 0 ? `, ${order.matchedAmount} filled` : '';
  switch (order.status) {
    case 'PENDING': return `${what}: resting in the book${filled}.`;
    case 'EXECUTED': return `${what}: filled.`;
    case 'EXECUTING': return `${what}: matched${filled}, settling.`;
    case 'CANCELLED': return `${what}: cancelled${filled || ' (nothing filled)'}.`;
    default: return `${what}: ${order.status.toLowerCase()}.`;
  }
}
