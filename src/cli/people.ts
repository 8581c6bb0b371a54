import type { ExchangeClient, Market } from '../client/index.ts';

/**
 * Table output for people (`--json` stays the API's own shapes): one number format, BUY/SELL,
 * outcome labels and market names rather than Side_A/Side_B and ids, short wallet addresses.
 */

/**
 * The one number format of tables: plain decimals without exponent or trailing zeros, at most 6
 * decimals (base-unit precision). Decimal strings stay exact; numbers (order prices and amounts
 * come as JSON numbers) are rounded to 6 decimals first.
 */
export function decimal(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = typeof value === 'number' ? value.toFixed(6) : value;
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction ? `${match[1]}.${fraction}` : match[1]!;
}

export const sideName = (side: number) => (side === 0 ? 'BUY' : 'SELL');

/** `0x1234…abcd`: enough to tell wallets apart in a table. */
export const shortAddress = (address: string | null | undefined) => (address && address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address ?? '');

/** Markets by id, each read once per command: names and outcome labels for rows that carry only ids. */
export function marketNames(client: ExchangeClient) {
  const markets = new Map<string, Promise<Market | undefined>>();
  const market = (marketId: string) => {
    let found = markets.get(marketId);
    if (!found) {
      found = client.markets.get(marketId).catch(() => undefined);
      markets.set(marketId, found);
    }
    return found;
  };
  return {
    /** The market's name, or its id when it cannot be read. */
    async name(marketId: string): Promise<string> {
      return (await market(marketId))?.name ?? marketId;
    },
    /** The label of a token's outcome ("Yes"), from its token id or from Side_A/Side_B. */
    async outcome(marketId: string, which: { tokenId?: string; side?: 'Side_A' | 'Side_B' | null }): Promise<string> {
      const m = await market(marketId);
      if (!m) return which.side ?? '';
      const first = which.side ? which.side === 'Side_A' : which.tokenId === m.tokenId1;
      return first ? m.outcome1 : m.outcome2;
    },
  };
}

/**
 * An order's status as the web app words it: a resting order is "open" (PENDING, or EXECUTING with a
 * remainder still in the book), a filled one "filled", or "settling" while its last fill settles.
 */
export function orderStatusName(status: string, resting = false): string {
  switch (status) {
    case 'PENDING': return 'open';
    case 'EXECUTING': return resting ? 'open' : 'settling';
    case 'EXECUTED': return 'filled';
    case 'CANCELLED': return 'cancelled';
    case 'REJECTED': return 'rejected';
    default: return status.toLowerCase();
  }
}

/** At most `width` characters, an ellipsis marking a cut. */
export const clip = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`);
