import { createHash } from 'node:crypto';
import { formatPrice, formatUnits } from '../core/money.ts';

/** One aggregated price level of a token's view, in that token's terms. */
export interface LevelView {
  priceMicros: number;
  sizeBaseUnits: bigint;
  orderCount: number;
}

export interface OrderBookLevel {
  price: string;
  size: string;
  numOrders?: number;
}

/** The REST OrderBook shape (SPEC.md section 2). */
export interface OrderBookResponse {
  market: string;
  asset_id: string;
  hash: string;
  timestamp: number;
  bids: OrderBookLevel[];
  asks: OrderBookLevel[];
  tick_size: string;
}


/**
 * The book state hash: sha256 over the market, the token and every level's price and size, best
 * first. REST responses, snapshots and every `orderbook-price-change` carry it, so a client that
 * applied the changes can check it holds exactly the server's book. Order counts and timestamps
 * are left out because the socket snapshots may omit counts.
 */
export function bookHash(market: string, assetId: string, bids: OrderBookLevel[], asks: OrderBookLevel[]): string {
  const canonical = JSON.stringify([market, assetId, bids.map((l) => [l.price, l.size]), asks.map((l) => [l.price, l.size])]);
  return createHash('sha256').update(canonical).digest('hex');
}

export function toOrderBook(input: { marketId: string; tokenId: string; tickSize: string; timestampMs: number; bids: LevelView[]; asks: LevelView[] }): OrderBookResponse {
  const level = (l: LevelView): OrderBookLevel => ({ price: formatPrice(l.priceMicros), size: formatUnits(l.sizeBaseUnits), numOrders: l.orderCount });
  const bids = input.bids.map(level);
  const asks = input.asks.map(level);
  return {
    market: input.marketId,
    asset_id: input.tokenId,
    hash: bookHash(input.marketId, input.tokenId, bids, asks),
    timestamp: input.timestampMs,
    bids,
    asks,
    tick_size: input.tickSize,
  };
}

/**
 * The level changes between two states of one token's book: every price whose total changed,
 * with its new total ("0" when the level is gone), bids before asks, best first.
 */
export function diffLevels(before: OrderBookResponse, after: OrderBookResponse): { price: string; side: 'buy' | 'sell'; size: string }[] {
  return [...diffSide(before.bids, after.bids, 'buy'), ...diffSide(before.asks, after.asks, 'sell')];
}

function diffSide(before: OrderBookLevel[], after: OrderBookLevel[], side: 'buy' | 'sell') {
  const old = new Map(before.map((l) => [l.price, l.size]));
  const changes: { price: string; side: 'buy' | 'sell'; size: string }[] = [];
  for (const level of after) {
    if (old.get(level.price) !== level.size) changes.push({ price: level.price, side, size: level.size });
    old.delete(level.price);
  }
  for (const price of old.keys()) changes.push({ price, side, size: '0' });
  return changes;
}
