import type { OrderRow } from '../../store/orders-repository.ts';
import type { TradeRow } from '../../store/trades-repository.ts';
import type { EngineOrder, EngineTrade, SignedFields } from '../state/types.ts';

/**
 * The engine's domain objects as the tables' rows: what the projection writes, and what the API
 * shapes (engine/shapes.ts) are made from. An order needs its signed fields, which orders
 * restored from a snapshot do not carry: their row comes from the store (`OrderDetailsSource`).
 */
export function orderRow(order: EngineOrder, signed: SignedFields): OrderRow {
  return {
    id: order.id,
    user_id: order.userId,
    account: order.account,
    market_id: order.marketId,
    token_id: order.tokenId,
    outcome_index: order.outcome,
    side: order.side === 'BUY' ? 0 : 1,
    order_type: order.type,
    post_only: order.postOnly,
    status: order.status,
    price_micros: BigInt(order.priceMicros),
    size_base_units: order.sizeBaseUnits,
    matched_base_units: order.matchedBaseUnits,
    salt: signed.salt,
    maker: signed.maker,
    signer: signed.signer,
    taker: signed.taker,
    maker_amount: signed.makerAmount,
    taker_amount: signed.takerAmount,
    expiration: BigInt(order.expirationSec),
    nonce: signed.nonce,
    fee_rate_bps: order.takerFeeBps,
    passive_fee_rate_bps: order.makerFeeBps,
    signature_type: signed.signatureType,
    signature: signed.signature,
    hash: signed.hash,
    idempotency_key: signed.idempotencyKey,
    metadata: null,
    book_seq: order.bookSeq,
    delayed_until: order.delayedUntilMs === null ? null : new Date(order.delayedUntilMs),
    created_at: new Date(order.createdAtMs),
    updated_at: new Date(order.updatedAtMs),
  };
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export function tradeRow(trade: EngineTrade): TradeRow {
  return {
    id: trade.id,
    seq: trade.seq,
    market_id: trade.marketId,
    kind: trade.kind,
    status: trade.status,
    token_id: trade.taker.tokenId,
    side: trade.taker.side === 'BUY' ? 0 : 1,
    price_micros: BigInt(trade.taker.priceMicros),
    size_base_units: trade.sizeBaseUnits,
    notional_base_units: trade.notionalBaseUnits,
    maker_token_id: trade.maker.tokenId,
    maker_side: trade.maker.side === 'BUY' ? 0 : 1,
    maker_price_micros: BigInt(trade.maker.priceMicros),
    taker_order_id: trade.taker.orderId,
    maker_order_id: trade.maker.orderId,
    taker_user_id: trade.taker.userId,
    maker_user_id: trade.maker.userId,
    taker_wallet: trade.taker.account,
    maker_wallet: trade.maker.account,
    taker_fee_base_units: trade.taker.feeBaseUnits,
    maker_fee_base_units: trade.maker.feeBaseUnits,
    tx_hash: trade.txHash,
    matched_at: new Date(trade.matchedAtMs),
    mined_at: date(trade.minedAtMs),
    confirmed_at: date(trade.confirmedAtMs),
  };
}
