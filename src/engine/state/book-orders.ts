import type { RestingOrderInit } from '../../core/book/types.ts';
import type { EngineOrder } from './types.ts';

/**
 * The order as the book takes it: what remains of it. One object literal for both the incoming
 * and the restored shape (an incoming order ignores `remainingBaseUnits`): over a million orders
 * at a restore, building one object and adding fields to it cost seconds.
 */
export function bookOrderOf(order: EngineOrder, sizeBaseUnits = remainingOf(order)): RestingOrderInit {
  return {
    id: order.id,
    ownerId: order.userId,
    outcome: order.outcome,
    side: order.side,
    priceMicros: order.priceMicros,
    sizeBaseUnits,
    remainingBaseUnits: remainingOf(order),
    type: order.type,
    postOnly: order.postOnly,
    expirationSec: order.expirationSec,
    takerFeeBps: order.takerFeeBps,
    makerFeeBps: order.makerFeeBps,
  };
}

/** What remains of the order; the size itself when nothing matched (no new BigInt per order). */
export function remainingOf(order: EngineOrder): bigint {
  return order.matchedBaseUnits === 0n ? order.sizeBaseUnits : order.sizeBaseUnits - order.matchedBaseUnits;
}
