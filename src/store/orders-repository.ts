import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { OrdersTable, OrderStatus } from './schema.ts';

export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;

export interface OrderFillUpdate {
  id: string;
  matchedBaseUnits: bigint;
  status: OrderStatus;
}

/** One multi-row insert for a whole engine batch. */
export async function insertOrders(db: Db, rows: NewOrderRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('orders').values(rows).execute();
}

/** Updates matched amounts and statuses of many orders in one statement. */
export async function updateOrderFills(db: Db, updates: OrderFillUpdate[], now: Date): Promise<void> {
  if (updates.length === 0) return;
  const values = sql.join(updates.map((u) => sql`(${u.id}::uuid, ${u.matchedBaseUnits}::bigint, ${u.status}::text)`));
  await sql`
    UPDATE orders AS o SET matched_base_units = v.matched, status = v.status, delayed_until = NULL, updated_at = ${now}
    FROM (VALUES ${values}) AS v(id, matched, status)
    WHERE o.id = v.id`.execute(db);
}

/** The hashes among `hashes` that an order already carries (any status: a hash is used once). */
export async function findUsedHashes(db: Db, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('orders').select('hash').where('hash', 'in', hashes).execute();
  return new Set(rows.map((r) => r.hash));
}

export async function findOrderByIdempotencyKey(db: Db, userId: string, key: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', key).executeTakeFirst();
}

export async function findOrderById(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrdersByIds(db: Db, ids: string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('orders').selectAll().where('id', 'in', ids).execute();
}

/** Open orders in time priority, to rebuild the books after a restart. */
export async function loadOpenOrders(db: Db): Promise<OrderRow[]> {
  return db.selectFrom('orders').selectAll().where('status', 'in', ['PENDING', 'EXECUTING']).orderBy('book_seq').execute();
}

export async function maxBookSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('orders').select((eb) => eb.fn.max('book_seq').as('max')).executeTakeFirst();
  return row?.max == null ? 0n : BigInt(row.max);
}
