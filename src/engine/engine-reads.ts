import type { RestingQuote } from '../core/rewards/index.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { OrderBookResponse } from './book-view.ts';
import type { LastTrade } from './engine-state.ts';
import type { MarketTradingInfo } from './types.ts';

/**
 * What the rest of the exchange reads of the engine's memory, and nothing it can change: the
 * modules that only read (book reads, metrics, reward sampling, the order routes' shapes) depend
 * on this, not on the engine.
 */
export interface EngineReads {
  /** The loaded market trading this token: every published market that has not resolved. */
  marketForToken(tokenId: string): MarketTradingInfo | undefined;
  /** Whether a market is loaded: every published, unresolved market is. */
  hasMarket(marketId: string): boolean;
  /** The live book of a token (read your writes: every acknowledged order is in it). */
  orderBook(tokenId: string): OrderBookResponse | undefined;
  /** The committed book with its seq, for real-time snapshots. */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined;
  lastTradePrice(tokenId: string): LastTrade | undefined;
  /** Every order resting in a book, grouped by market, in its own token's terms (reward sampling). */
  restingOrdersByMarket(): Map<string, RestingQuote[]>;
  /** Markets where the user has open orders (resting or speed-bumped). */
  marketsWithOpenOrders(userId: string): string[];
  /** The outcome label of an order of a loaded market ("" once its market is gone from the engine). */
  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string;
  /** Books held (one per market), their price levels as last published, and open orders. */
  bookStats(): { books: number; levels: number; openOrders: number };
}
