import type { DomainEvents } from '../events/domain-events.ts';
import type { Audience } from './audience.ts';
import { listenSafely } from './bus-listener.ts';
import { ALL_TRADE_ACTIVITY_ROOM, bookRoom, eventTradeActivityRoom } from './rooms.ts';
import type { BookSnapshot } from '../contract/realtime.ts';
import type { RealtimeLogger } from './types.ts';

/**
 * Forwards the bus's market events to the rooms of the default namespace. Only the node whose
 * bus published an event emits it; the adapter carries the emit to the room's members on every
 * node, so each subscriber receives it exactly once. Returns the unsubscribe function.
 */
export function forwardMarketEvents(audience: Audience, events: DomainEvents, tradeActivityMinUsd: number, logger: RealtimeLogger): () => void {
  const unsubscribers = [
    listenSafely(events, 'book-change', logger, (change) => {
      audience(bookRoom(change.assetId))?.emit('orderbook-price-change', {
        market: change.marketId,
        asset_id: change.assetId,
        seq: change.seq,
        hash: change.hash,
        timestamp: change.timestampMs,
        changes: change.changes,
      });
    }),
    listenSafely(events, 'book-snapshot', logger, ({ assetId, snapshot }) => {
      audience(bookRoom(assetId))?.emit('orderbook', snapshot as BookSnapshot);
    }),
    listenSafely(events, 'last-trade-price', logger, (price) => {
      audience(bookRoom(price.assetId))?.emit('last-trade-price', {
        market: price.marketId,
        asset_id: price.assetId,
        price: price.price,
        side: price.side,
        timestamp: price.timestampMs,
      });
    }),
    listenSafely(events, 'trade-activity', logger, (trade) => {
      if (trade.notionalUsd < tradeActivityMinUsd) return;
      const rooms = trade.eventId === null ? [ALL_TRADE_ACTIVITY_ROOM] : [ALL_TRADE_ACTIVITY_ROOM, eventTradeActivityRoom(trade.eventId.toLowerCase())];
      audience(rooms)?.emit('trade-activity', trade.activity);
    }),
  ];
  return () => unsubscribers.forEach((unsubscribe) => { unsubscribe(); });
}
