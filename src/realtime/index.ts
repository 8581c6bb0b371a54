export { attachRealtime, type Realtime } from './attach.ts';
export type { BookLevel, BookSnapshot, BookSnapshotSource, RealtimeLogger, RealtimeOptions, UserHandshakeVerifier } from './types.ts';
export type { ClientToServerEvents, LastTradePriceMessage, LevelChange, OrderbookPriceChange, OrderUpdateMessage, ServerToClientEvents, SubscriptionError } from './messages.ts';
export { MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION } from './subscription-requests.ts';
