import type { NormalizedOrder } from '../core/orders/create-order-rules.ts';
import type { OrderRow } from '../store/orders-repository.ts';

/** What the engine needs to know of a market to trade it, kept in memory and refreshed on change. */
export interface MarketTradingInfo {
  id: string;
  eventId: string;
  status: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  isPaused: boolean;
  isResolved: boolean;
  negRisk: boolean;
  tokenId1: string;
  tokenId2: string;
  conditionId: string;
  outcome1: string;
  outcome2: string;
  tickSize: string;
  orderFeeRateBps: number;
  passiveOrderFeeRateBps: number;
  speedBumpDelayMs: number;
}

export interface PlaceOrderRequest {
  userId: string;
  /** Ledger account of the user (its proxy wallet, lowercase). */
  account: string;
  marketId: string;
  /** An order that passed the CreateOrder rules (and, when signed, its signature check). */
  order: NormalizedOrder;
  /** Its EIP-712 hash: the order's identity, used once. */
  hash: string;
  idempotencyKey: string | null;
}

export interface EngineFailure {
  ok: false;
  code: string;
  message: string;
}

export type PlaceOrderOutcome = { ok: true; order: OrderRow; replayed: boolean } | (EngineFailure & { order?: OrderRow });
export type CancelOrderOutcome = { ok: true; order: OrderRow } | EngineFailure;

export const failure = (code: string, message: string): EngineFailure => ({ ok: false, code, message });
