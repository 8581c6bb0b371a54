import type { Db } from '../store/database.ts';
import { findOrderDetails, type OrderRow } from '../store/orders-repository.ts';
import { orderRow } from './projection/rows.ts';
import type { EngineOrder } from './state/types.ts';

/**
 * Completes orders restored from a snapshot with their signed fields (state/types.ts "EngineOrder"),
 * read from the tables, which hold every order of a snapshot: once per order, the first time an
 * answer or an announcement needs the order whole.
 */
export class OrderDetails {
  constructor(private readonly db: Db) {}

  async complete(orders: Iterable<EngineOrder>): Promise<void> {
    const missing = new Map<string, EngineOrder>();
    for (const order of orders) if (!order.signed) missing.set(order.id, order);
    if (missing.size === 0) return;
    for (const row of await findOrderDetails(this.db, [...missing.keys()])) {
      missing.get(row.id)!.signed = {
        salt: row.salt, maker: row.maker, signer: row.signer, taker: row.taker, makerAmount: row.maker_amount, takerAmount: row.taker_amount,
        nonce: row.nonce, signatureType: row.signature_type, signature: row.signature, hash: row.hash, idempotencyKey: row.idempotency_key,
      };
      missing.delete(row.id);
    }
    if (missing.size > 0) throw new Error(`orders ${[...missing.keys()].join(', ')} are not in the store`);
  }

  /** The order's row as it stands now (its signed fields read first when it has none). */
  async rowOf(order: EngineOrder): Promise<OrderRow> {
    await this.complete([order]);
    return orderRow(order, order.signed!);
  }
}
