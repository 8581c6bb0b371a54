/** The package's "./client" entry: the typed SDK (see README.md in this folder). */
export { createClient, type ClientOptions, type ExchangeClient } from './client.ts';
export { ExchangeError, OrderBuildError, type ErrorBody } from './errors.ts';
export type { ApiKeyCredentials } from './hmac.ts';
export type { Credentials, RetryPolicy } from './transport.ts';
export type { SignedTimestamps } from './server-clock.ts';
export { buildOrder, type OrderSpec, type MarketRules } from './orders/build.ts';
export { orderAmounts, type OrderAmounts, type OrderSide } from './orders/amounts.ts';
export { ORDER_TYPES, orderDomain } from './orders/eip712.ts';
export { BATCH_MAX } from './sections/orders.ts';
export type { WithdrawalSpec } from './sections/account.ts';
export { WITHDRAW_TYPES } from '../contract/withdraw-typed-data.ts';
export { BookWatcher, BookWatchError, type BookWatcherEvents, type WaitOptions, type WatchBookOptions } from './realtime/book-watcher.ts';
export { LocalBook, bookHash, type Level, type ApplyResult, type BookSnapshotMessage, type PriceChangeMessage } from './realtime/local-book.ts';
export { UserFeed, type UserMessage } from './realtime/user-feed.ts';
export { TradeFeed, type TradeFeedOptions } from './realtime/trade-feed.ts';
export { formatUnits, parseUnits } from './units.ts';
export type * from './types.ts';
/** The exchange's fee on a fill (bps × min(p, 1 − p) × size, rounded down), for previews before signing. */
export { feeBaseUnits } from '../core/book/fees.ts';
