/**
 * Room names. Every event is emitted to a room, never to a socket found by lookup, so the Redis
 * adapter can deliver it to the members on every node.
 */
const BOOK_PREFIX = 'book:';

export const bookRoom = (tokenId: string): string => `${BOOK_PREFIX}${tokenId}`;
export const isBookRoom = (room: string): boolean => room.startsWith(BOOK_PREFIX);
export const tokenOfBookRoom = (room: string): string => room.slice(BOOK_PREFIX.length);

/** Sockets that want the trade activity of every market. */
export const ALL_TRADE_ACTIVITY_ROOM = 'trade-activity';
const TRADE_ACTIVITY_EVENT_PREFIX = 'trade-activity:event:';
export const eventTradeActivityRoom = (eventId: string): string => `${TRADE_ACTIVITY_EVENT_PREFIX}${eventId}`;
export const isTradeActivityRoom = (room: string): boolean => room === ALL_TRADE_ACTIVITY_ROOM || room.startsWith(TRADE_ACTIVITY_EVENT_PREFIX);

/** `/user` namespace: one room per user, joined by each of that user's authenticated sockets. */
export const userRoom = (userId: string): string => `user:${userId}`;
