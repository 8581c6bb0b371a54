import { MarketBook } from '../core/book/market-book.ts';
import type { IncomingOrder, RestingOrderInit } from '../core/book/types.ts';
import type { ReservationTerms } from '../core/orders/reservation.ts';
import type { Db } from '../store/database.ts';
import { openOrderChunks } from '../store/open-order-chunks-repository.ts';
import { maxBookSeq, type OrderRow } from '../store/orders-repository.ts';
import { maxTradeSeq } from '../store/trades-repository.ts';
import type { EngineOrder } from './engine-order.ts';
import type { MarketDirectory } from './market-directory.ts';
import type { MarketTradingInfo } from './types.ts';

/** One tradable market in the engine: what it knows of the market, its book, its speed-bumped orders. */
export interface MarketRuntime {
  info: MarketTradingInfo;
  book: MarketBook;
  /** Speed-bumped taker orders, FIFO, with the time they may enter the book. */
  delayed: { orderId: string; dueMs: number }[];
}

export interface LastTrade {
  price: string;
  side: 'buy' | 'sell';
}

/**
 * What the engine holds in memory: the book of every published, unresolved market, the open
 * orders (resting or speed-bumped), each token's last trade and the next sequence numbers. The
 * order commands (order-commands.ts) change it inside a batch; `load` rebuilds it from the store.
 */
export class EngineState {
  readonly runtimes = new Map<string, MarketRuntime>();
  /** Open orders by id; those loaded at start without their details until needed (engine-order.ts). */
  readonly open = new Map<string, EngineOrder>();
  readonly lastTrade = new Map<string, LastTrade>();
  private readonly marketOfToken = new Map<string, string>();
  nextBookSeq = 1n;
  nextTradeSeq = 1n;

  /** The market trading this token, and which of its two outcomes the token is. */
  runtimeOfToken(tokenId: string): { runtime: MarketRuntime; outcome: 0 | 1 } | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    const runtime = marketId ? this.runtimes.get(marketId) : undefined;
    return runtime ? { runtime, outcome: tokenId === runtime.info.tokenId1 ? 0 : 1 } : undefined;
  }

  addRuntime(info: MarketTradingInfo): MarketRuntime {
    const runtime: MarketRuntime = { info, book: new MarketBook(), delayed: [] };
    this.runtimes.set(info.id, runtime);
    this.marketOfToken.set(info.tokenId1, info.id);
    this.marketOfToken.set(info.tokenId2, info.id);
    return runtime;
  }

  dropRuntime(marketId: string): void {
    const runtime = this.runtimes.get(marketId);
    if (!runtime) return;
    this.runtimes.delete(marketId);
    this.marketOfToken.delete(runtime.info.tokenId1);
    this.marketOfToken.delete(runtime.info.tokenId2);
  }

  /** The outcome label of an order of a loaded market ("" once its market is gone from the engine). */
  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string {
    const info = this.runtimes.get(row.market_id)?.info;
    return info ? (row.outcome_index === 0 ? info.outcome1 : info.outcome2) : '';
  }

  /** Forgets everything (the engine stopped: another node may run it now). */
  clear(): void {
    this.forgetBooks();
    this.lastTrade.clear();
  }

  /**
   * Rebuilds the books from the store: the tradable markets, then their open orders in time
   * priority within each market (`book_seq`, acceptance order), speed-bumped ones back in their
   * queue. The reads go out together (on PostgreSQL, on as many connections), and the books
   * are built chunk by chunk while the next chunk is read. Last trades
   * are the settlement rounds' to load (settlement-rounds.ts).
   */
  async load(db: Db, markets: MarketDirectory): Promise<void> {
    this.forgetBooks();
    const openOrders = openOrderChunks(db);
    const [active, lastBookSeq, lastTradeSeq] = await Promise.all([markets.loadActive(), maxBookSeq(db), maxTradeSeq(db)]);
    for (const info of active) this.addRuntime(info);
    for await (const chunk of openOrders) {
      for (const row of chunk) {
        const runtime = this.runtimes.get(row.market_id);
        if (!runtime) continue;
        this.open.set(row.id, row);
        if (row.delayed_until) runtime.delayed.push({ orderId: row.id, dueMs: row.delayed_until.getTime() });
        else runtime.book.restore(toResting(row));
      }
    }
    this.nextBookSeq = lastBookSeq + 1n;
    this.nextTradeSeq = lastTradeSeq + 1n;
  }

  /** Drops the books and open orders; last trades stay until the settlement rounds reload them. */
  private forgetBooks(): void {
    this.runtimes.clear();
    this.marketOfToken.clear();
    this.open.clear();
  }
}

export function termsOf(row: EngineOrder): ReservationTerms {
  return { side: row.side === 0 ? 'BUY' : 'SELL', limitMicros: Number(row.price_micros), takerFeeBps: row.fee_rate_bps, makerFeeBps: row.passive_fee_rate_bps };
}

/** The order as the book takes it back after a restart: its size as accepted and what remains. */
function toResting(row: EngineOrder): RestingOrderInit {
  return bookOrderOf(row, row.size_base_units, remainingOf(row));
}

/** The order as the book takes it: what remains of it. */
export function toIncoming(row: EngineOrder): IncomingOrder {
  const remaining = remainingOf(row);
  return bookOrderOf(row, remaining, remaining);
}

/**
 * One object literal for both shapes (an incoming order ignores `remainingBaseUnits`): over a
 * million orders at start, building one object and adding fields to it, or spreading it into a
 * second, cost seconds.
 */
function bookOrderOf(row: EngineOrder, sizeBaseUnits: bigint, remainingBaseUnits: bigint): RestingOrderInit {
  return {
    id: row.id,
    ownerId: row.user_id,
    outcome: row.outcome_index as 0 | 1,
    side: row.side === 0 ? 'BUY' : 'SELL',
    priceMicros: Number(row.price_micros),
    sizeBaseUnits,
    remainingBaseUnits,
    type: row.order_type,
    postOnly: row.post_only,
    expirationSec: Number(row.expiration),
    takerFeeBps: row.fee_rate_bps,
    makerFeeBps: row.passive_fee_rate_bps,
  };
}

/** What remains of the order; the size itself when nothing matched (no new BigInt per order). */
function remainingOf(row: EngineOrder): bigint {
  return row.matched_base_units === 0n ? row.size_base_units : row.size_base_units - row.matched_base_units;
}
