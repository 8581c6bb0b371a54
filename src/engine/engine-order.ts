import type { Db } from '../store/database.ts';
import { findOrderDetails, ORDER_DETAIL_COLUMNS, type OpenOrderRow, type OrderDetails, type OrderRow } from '../store/orders-repository.ts';

/**
 * An open order as the engine holds it. Orders placed since the engine started are whole rows;
 * orders loaded at start carry only what matching, reservations and fills use (`OpenOrderRow`):
 * a restart with a million open orders then reads and keeps a third of their bytes. The rest of
 * an order never changes once accepted, and is read from the store, once, by the batch that first
 * announces or answers with the order (`fillInDetails`), which completes the object in place.
 */
export type EngineOrder = OpenOrderRow & Partial<OrderDetails>;

export function hasDetails(order: EngineOrder): order is OrderRow {
  return order.signature !== undefined;
}

/** The whole order, which a batch completes before it answers or announces it. */
export function detailed(order: EngineOrder): OrderRow {
  if (!hasDetails(order)) throw new Error(`order ${order.id} was answered before its details were read`);
  return order;
}

/** Completes these orders in place with their details from the store, in one read. */
export async function fillInDetails(tx: Db, orders: Iterable<EngineOrder>): Promise<void> {
  const missing = new Map<string, EngineOrder>();
  for (const order of orders) if (!hasDetails(order)) missing.set(order.id, order);
  if (missing.size === 0) return;
  for (const details of await findOrderDetails(tx, [...missing.keys()])) {
    const order = missing.get(details.id)!;
    // A field the engine already set (updated_at, on a change in this batch) is newer than the store's.
    for (const column of ORDER_DETAIL_COLUMNS) if (order[column] === undefined) (order as Record<string, unknown>)[column] = details[column];
    missing.delete(details.id);
  }
  if (missing.size > 0) throw new Error(`open orders ${[...missing.keys()].join(', ')} are not in the store`);
}
