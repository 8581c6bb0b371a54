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
  /**
   * The event's oracle reward in base units (EXTENSIONS.md section 11), escrowed from the reward
   * treasury when the engine first learns of the market; absent in records written before it was.
   */
  oracleReward?: string;
}

export interface EngineFailure {
  ok: false;
  code: string;
  message: string;
}

export type PlaceOrderOutcome = { ok: true; order: OrderRow; replayed: boolean } | (EngineFailure & { order?: OrderRow });
export type CancelOrderOutcome = { ok: true; order: OrderRow } | EngineFailure;

export const failure = (code: string, message: string): EngineFailure => ({ ok: false, code, message });
