import type { HexAddress } from '../contract/common.ts';
import { formatPrice, formatUnits, priceToNumber, unitsToNumber } from '../core/money.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { TradeRow } from '../store/trades-repository.ts';
import type { MmpScope, MmpSetting } from './state/maker-safety.ts';

/**
 * API shapes of orders and trades (SPEC.md section 2). The engine publishes its events in these
 * shapes and the routes answer with them, so both always agree.
 */
export interface OrderResponse {
  id: string;
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  tokenId: string;
  makerAmount: number;
  takerAmount: number;
  expiration: number;
  nonce: number;
  feeRateBps: number;
  side: number;
  signatureType: number;
  signature: string;
  market: string;
  orderType: string;
  postOnly: boolean;
  owner: string;
  outcome: string;
  status: string;
  createdAt: string;
  amount: number;
  price: number;
  matchedAmount: number;
  hash: string;
  priceUint: string;
  metadata?: Record<string, unknown>;
}

export function toOrderResponse(row: OrderRow, outcomeLabel: string): OrderResponse {
  const response: OrderResponse = {
    id: row.id,
    salt: row.salt,
    maker: row.maker,
    signer: row.signer,
    taker: row.taker,
    tokenId: row.token_id,
    makerAmount: Number(row.maker_amount),
    takerAmount: Number(row.taker_amount),
    expiration: Number(row.expiration),
    nonce: Number(row.nonce),
    feeRateBps: row.fee_rate_bps,
    side: row.side,
    signatureType: row.signature_type,
    signature: row.signature,
    market: row.market_id,
    orderType: row.order_type,
    postOnly: row.post_only,
    owner: row.user_id,
    outcome: outcomeLabel,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    amount: unitsToNumber(row.size_base_units),
    price: priceToNumber(row.price_micros),
    matchedAmount: unitsToNumber(row.matched_base_units),
    hash: row.hash,
    priceUint: String(row.price_micros),
  };
  if (row.metadata && typeof row.metadata === 'object') response.metadata = row.metadata as Record<string, unknown>;
  return response;
}

/** The raw Trade of SPEC.md: the taker's token, side, price and size; proxy wallets; Unix seconds. */
export interface TradeResponse {
  id: string;
  market: string;
  tokenId: string;
  price: string | null;
  size: string | null;
  side: number;
  status: string;
  txHash: string | null;
  taker: HexAddress | null;
  maker: HexAddress | null;
  matchedAt: number;
  confirmedAt: number | null;
}

const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toTradeResponse(row: TradeRow): TradeResponse {
  return {
    id: row.id,
    market: row.market_id,
    tokenId: row.token_id,
    price: formatPrice(row.price_micros),
    size: formatUnits(row.size_base_units),
    side: row.side,
    status: row.status,
    txHash: row.tx_hash,
    // Wallets are written as the engine took them from checked orders: addresses.
    taker: row.taker_wallet as HexAddress | null,
    maker: row.maker_wallet as HexAddress | null,
    matchedAt: unixSeconds(row.matched_at),
    confirmedAt: row.confirmed_at ? unixSeconds(row.confirmed_at) : null,
  };
}

/** An MMP scope as the API names it (EXTENSIONS.md section 15). */
export type MmpScopeResponse = { marketId: string } | { eventId: string };

export const toMmpScope = (scope: MmpScope): MmpScopeResponse => (scope.kind === 'market' ? { marketId: scope.id } : { eventId: scope.id });

/** The `/user` event `mmp-triggered`. */
export function toMmpTriggered(trip: { scope: MmpScope; trippedAtMs: number; frozenUntilMs: number }) {
  return { scope: toMmpScope(trip.scope), trippedAt: new Date(trip.trippedAtMs).toISOString(), frozenUntil: new Date(trip.frozenUntilMs).toISOString() };
}

/** A setting as `PUT`/`GET /mmp` show it: its limits (those set), and its freeze while it lasts at `nowMs`. */
export function toMmpSetting(setting: MmpSetting, nowMs: number) {
  return {
    scope: toMmpScope(setting.scope),
    windowMs: setting.windowMs,
    ...(setting.maxFills !== null ? { maxFills: setting.maxFills } : {}),
    ...(setting.maxQuantityBaseUnits !== null ? { maxQuantity: formatUnits(setting.maxQuantityBaseUnits) } : {}),
    ...(setting.maxNotionalBaseUnits !== null ? { maxNotionalUsd: formatUnits(setting.maxNotionalBaseUnits) } : {}),
    frozenMs: setting.frozenMs,
    frozenUntil: setting.frozenUntilMs > nowMs ? new Date(setting.frozenUntilMs).toISOString() : null,
  };
}
