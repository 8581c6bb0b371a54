import type { EngineTrade } from './types.ts';

/**
 * The most makers one settlement call of a match carries. A taker that sweeps more is settled in
 * parts of at most this many makers, numbered from 0 in match order, each its own `matchOrders`
 * (contracts/exchange/OrderBook.sol settles each part once). 100 maker fills are about 64 KB of
 * calldata (640 B each), half of the 128 KiB a geth-based node takes into its pool, and about 7.5M
 * gas (73k each, contracts/README.md "Gas"), under the sender's 25M cap: a sweep of any size
 * settles, where one call of more than about 200 makers was refused by a public node's pool. A constant of the state machine, not a setting: replaying a journal must number
 * its parts as the live engine did.
 */
export const MAKERS_PER_MATCH_PART = 100;

/** The part of its taker's match that the fill at `fillIndex` (0-based, in match order) belongs to, as a trade's field: absent for part 0. */
export function matchPartOf(fillIndex: number): { matchPart?: number } {
  const part = Math.floor(fillIndex / MAKERS_PER_MATCH_PART);
  return part === 0 ? {} : { matchPart: part };
}

/** What settlement names a trade's match by: its taker order's id, with `#part` for parts 1 and above. */
export function matchIdOf(trade: Pick<EngineTrade, 'taker' | 'matchPart'>): string {
  return trade.matchPart ? `${trade.taker.orderId}#${trade.matchPart}` : trade.taker.orderId;
}

/** Trades grouped by their match (part), each group in the order given: match order, as the engine keeps them. */
export function tradesByMatch(trades: Iterable<EngineTrade>): Map<string, EngineTrade[]> {
  const matches = new Map<string, EngineTrade[]>();
  for (const trade of trades) {
    const id = matchIdOf(trade);
    const match = matches.get(id);
    if (match) match.push(trade);
    else matches.set(id, [trade]);
  }
  return matches;
}
