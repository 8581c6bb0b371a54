export { AnnouncedRelay } from './announced-relay.ts';
export { attachRealtime, type Realtime } from './attach.ts';
export { BookRelay, type LastTrade, type PeerBook, type PeerBookSource } from './book-relay.ts';
export { MarketChangeRelay } from './market-change-relay.ts';
export { SessionRelay, type SessionChange } from './session-relay.ts';
export type { RedisFanout } from './redis-fanout.ts';
export type { BookSnapshotSource, DisconnectSessions, RealtimeLogger, RealtimeOptions, UserHandshakeVerifier } from './types.ts';
export type {
  BookLevel, BookSnapshot, ClientToServerEvents, LastTradePriceMessage, LevelChange, OrderbookPriceChange, OrderUpdateMessage, ServerToClientEvents, SubscriptionError,
} from '../contract/realtime.ts';
export { MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION } from './subscription-requests.ts';
