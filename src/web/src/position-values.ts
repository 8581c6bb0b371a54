import type { UserPosition } from '../../client/index.ts';
import { units } from './format.ts';
import { useBookWatcher } from './live-book.ts';
import { heldPrice, ONE } from './price.ts';
import { useSession } from './session.ts';

/** One socket call subscribes to 100 tokens at most (EXTENSIONS.md section 6). */
const WATCHED_TOKENS = 100;

/** A position at the price its market's page shows: that price, the position's value, and its gain against what it cost. */
export interface PositionValue {
  price: bigint;
  value: bigint;
  gain: bigint;
}

/**
 * The positions valued as the market pages value them (price.ts), live: the API's `latest` is the
 * last trade's price, where the pages show the midpoint while the spread is 10¢ or narrower, so
 * the two disagreed. The held tokens' books are watched (a resolved market has none: its `latest`
 * is what a share redeems for); keyed by token.
 */
export function usePositionValues(rows: readonly UserPosition[]): Map<string, PositionValue> {
  const { client } = useSession();
  const trading = rows.filter((row) => row.status !== 'RESOLVED').slice(0, WATCHED_TOKENS);
  const { watcher } = useBookWatcher(client, trading.map((row) => row.tokenId));
  return new Map(rows.map((row) => {
    const latest = units(row.latest) ?? 0n;
    const price = row.status === 'RESOLVED' ? latest : heldPrice(watcher?.bestBid(row.tokenId), watcher?.bestAsk(row.tokenId), latest);
    const value = ((units(row.amount) ?? 0n) * price) / ONE;
    return [row.tokenId, { price, value, gain: value - (units(row.initial) ?? 0n) }];
  }));
}
