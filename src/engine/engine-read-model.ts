import type { Clock } from '../clock.ts';
import type { RestingQuote } from '../core/rewards/index.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { BookPublisher } from './book-publisher.ts';
import { toOrderBook, type OrderBookResponse } from './book-view.ts';
import type { EngineReads } from './engine-reads.ts';
import type { EngineState, LastTrade } from './engine-state.ts';
import type { MarketTradingInfo } from './types.ts';

/** The engine's memory as its readers see it (EngineReads): the live books, open orders and last trades. */
export class EngineReadModel implements EngineReads {
  constructor(
    private readonly state: EngineState,
    private readonly publisher: BookPublisher,
    private readonly clock: Clock,
  ) {}

  marketForToken(tokenId: string): MarketTradingInfo | undefined {
    return this.state.runtimeOfToken(tokenId)?.runtime.info;
  }

  hasMarket(marketId: string): boolean {
    return this.state.runtimes.has(marketId);
  }

  orderBook(tokenId: string): OrderBookResponse | undefined {
    const found = this.state.runtimeOfToken(tokenId);
    if (!found) return undefined;
    const { runtime: { info, book }, outcome } = found;
    const levels = book.levels(outcome);
    return toOrderBook({ marketId: info.id, tokenId, tickSize: info.tickSize, timestampMs: this.clock.nowMs(), bids: levels.bids, asks: levels.asks });
  }

  /** A change waiting for its frame is published first (BookPublisher.snapshot), so the seq continues from it. */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined {
    const found = this.state.runtimeOfToken(tokenId);
    return found && this.publisher.snapshot(found.runtime.info.id, found.outcome);
  }

  lastTradePrice(tokenId: string): LastTrade | undefined {
    return this.state.lastTrade.get(tokenId);
  }

  /** Speed-bumped orders are not in a book yet; one pass over the open orders for all markets. */
  restingOrdersByMarket(): Map<string, RestingQuote[]> {
    const byMarket = new Map<string, RestingQuote[]>();
    for (const row of this.state.open.values()) {
      const resting = this.state.runtimes.get(row.market_id)?.book.get(row.id);
      if (!resting || resting.remainingBaseUnits <= 0n) continue;
      const list = byMarket.get(row.market_id) ?? [];
      list.push({ orderId: row.id, makerId: row.user_id, outcome: resting.outcome, side: resting.side, priceMicros: resting.priceMicros, remainingBaseUnits: resting.remainingBaseUnits });
      byMarket.set(row.market_id, list);
    }
    return byMarket;
  }

  marketsWithOpenOrders(userId: string): string[] {
    const markets = new Set<string>();
    for (const row of this.state.open.values()) if (row.user_id === userId) markets.add(row.market_id);
    return [...markets];
  }

  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string {
    return this.state.outcomeLabelOf(row);
  }

  bookStats(): { books: number; levels: number; openOrders: number } {
    return { books: this.state.runtimes.size, levels: this.publisher.levelCount(), openOrders: this.state.open.size };
  }
}
