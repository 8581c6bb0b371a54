import { walkBackwards } from '../paginate.ts';
import { TradeFeed, type TradeFeedOptions } from '../realtime/trade-feed.ts';
import type { TradeActivity, TradeActivityList, TradeActivityParams, Trade, TradesList, TradesParams } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Public trades (SPEC.md 4.6), newest first. The `all*` iterators follow `before` + `beforeId`. */
export function tradesSection({ transport }: ClientContext) {
  const list = (params: TradesParams = {}) => transport.call<TradesList>('GET', '/trades', { query: params });
  const activity = (params: TradeActivityParams = {}) => transport.call<TradeActivityList>('GET', '/trades/activity', { query: params });
  return {
    /** Raw trades (taker token, side, price); times in Unix seconds. */
    list,
    /** Every matching trade, newest first, page after page (`before`/`after` bound the walk). */
    all: (params: Omit<TradesParams, 'beforeId'> = {}) => walkBackwards<TradesList, Trade>(
      (key) => list({ ...params, ...key }),
      (trade) => ({ before: trade.matchedAt, beforeId: trade.id }),
    ),
    /** Confirmed trades with trader, market and event; times in epoch microseconds. */
    activity,
    /** Every matching TradeActivity row, newest first, page after page (`after` cannot go with the walk's `before`). */
    allActivity: (params: Omit<TradeActivityParams, 'beforeId' | 'after'> = {}) => walkBackwards<TradeActivityList, TradeActivity>(
      (key) => activity({ ...params, ...key }),
      (row) => ({ before: row.matchedAt, beforeId: row.id }),
    ),
    /** Confirmed trades as they happen, over Socket.IO (`for await`; `close()` when done). */
    follow: (options: TradeFeedOptions = {}) => new TradeFeed(transport.baseUrl, options),
  };
}
