/**
 * The Socket.IO events of EXTENSIONS.md section 6 with their payloads, shared by the server and
 * by typed clients (`io<ServerToClientEvents, ClientToServerEvents>(...)`).
 */

/** One price level as the socket snapshots show it (OrderBookLevel; `numOrders` may be absent). */
export interface BookLevel {
  price: string;
  size: string;
  numOrders?: number;
}

/** The REST OrderBook shape of one token plus the seq of the state it shows. */
export interface BookSnapshot {
  market: string;
  asset_id: string;
  hash: string;
  /** Integer Unix milliseconds. */
  timestamp: number;
  bids: BookLevel[];
  asks: BookLevel[];
  tick_size: string;
  seq: number;
}

export interface LevelChange {
  price: string;
  side: 'buy' | 'sell';
  /** The level's new total; "0" removes the level. */
  size: string;
}

export interface OrderbookPriceChange {
  market: string;
  asset_id: string;
  seq: number;
  hash: string;
  /** Integer Unix milliseconds. */
  timestamp: number;
  changes: LevelChange[];
}

export interface LastTradePriceMessage {
  market: string;
  asset_id: string;
  price: string;
  side: 'buy' | 'sell';
  /** Integer Unix milliseconds. */
  timestamp: number;
}

/** The answer to a refused client request; the connection and its other subscriptions stay as they were. */
export interface SubscriptionError {
  /** The client event that was refused. */
  event: keyof ClientToServerEvents;
  /** SERVICE_UNAVAILABLE: the node that holds the books did not answer (several nodes); ask again. */
  code: 'VALIDATION_FAILED' | 'NOT_FOUND' | 'SERVICE_UNAVAILABLE';
  message: string;
  /** The token ids the refusal is about (empty when the payload named none). */
  tokenIds: string[];
}

export interface OrderUpdateMessage {
  type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION';
  order: unknown;
  /** On a CANCELLATION the exchange made (EXTENSIONS.md section 15): HEARTBEAT_EXPIRED, DISCONNECTED, MMP_TRIGGERED, UNFUNDED, MARKET_RESOLVED or EXPIRED. */
  reason?: string;
}

/** `/user` only: a key's market-maker protection tripped; its new orders in `scope` are refused until `frozenUntil`. */
export interface MmpTriggeredMessage {
  scope: { marketId: string } | { eventId: string };
  /** ISO 8601 date-times. */
  trippedAt: string;
  frozenUntil: string;
}

export interface ServerToClientEvents {
  orderbook: (snapshot: BookSnapshot) => void;
  'orderbook-price-change': (change: OrderbookPriceChange) => void;
  'last-trade-price': (price: LastTradePriceMessage) => void;
  /** One TradeActivity row (the REST shape of GET /trades/activity). */
  'trade-activity': (activity: unknown) => void;
  'subscription-error': (error: SubscriptionError) => void;
  /** `/user` only. */
  'order-update': (update: OrderUpdateMessage) => void;
  /** `/user` only: one Trade (SPEC.md), at MATCHED and at every later status. */
  'trade-update': (trade: unknown) => void;
  /** `/user` only: MMP tripped for one of the user's API keys. */
  'mmp-triggered': (update: MmpTriggeredMessage) => void;
  /** `/user` only: `{claimId, state, amountUsdc, txHash?, error?, timestamp}`. */
  'user-reward-claim-update': (update: unknown) => void;
}

/** Payloads are `unknown` because clients send anything; the server parses them. */
export interface ClientToServerEvents {
  'orderbook-market-connect': (tokenIds: unknown) => void;
  'orderbook-market-disconnect': (tokenIds: unknown) => void;
  /**
   * The acknowledgement is optional (EXTENSIONS.md names none): a client that passes one learns
   * when the subscription is in place, or why it was refused (also sent as `subscription-error`).
   */
  'trade-activity-connect': (filter: unknown, ack?: (answer: SubscriptionAck) => void) => void;
}

export type SubscriptionAck = { ok: true } | { ok: false; error: SubscriptionError };
