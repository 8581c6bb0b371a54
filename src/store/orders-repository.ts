import { sql, type Selectable } from 'kysely';
import { columnArrays, type ColumnTypes } from './column-arrays.ts';
import type { Db } from './database.ts';
import type { OrdersTable } from './schema.ts';

export type OrderRow = Selectable<OrdersTable>;

/**
 * The columns of an order that matching, reservations and fills read or change: what the engine
 * keeps of every open order. The rest (`ORDER_DETAIL_COLUMNS`: the signed fields, hash,
 * idempotency key, metadata, creation time) never change once the order is accepted, except
 * `updated_at`, which the engine only writes (it is part of no answer).
 */
const OPEN_ORDER_COLUMNS = [
  'id', 'user_id', 'account', 'market_id', 'token_id', 'outcome_index', 'side', 'order_type', 'post_only', 'status', 'price_micros', 'size_base_units',
  'matched_base_units', 'expiration', 'fee_rate_bps', 'passive_fee_rate_bps', 'book_seq', 'delayed_until',
] as const satisfies readonly (keyof OrderRow)[];
export const ORDER_DETAIL_COLUMNS = [
  'salt', 'maker', 'signer', 'taker', 'maker_amount', 'taker_amount', 'nonce', 'signature_type', 'signature', 'hash', 'idempotency_key', 'metadata', 'created_at', 'updated_at',
] as const satisfies readonly (keyof OrderRow)[];
export type OpenOrderRow = Pick<OrderRow, (typeof OPEN_ORDER_COLUMNS)[number]>;
/** The text of each of `OPEN_ORDER_COLUMNS`, in that order: one line of `openOrderChunks`. */
export type OpenOrderLine = AsText<typeof OPEN_ORDER_COLUMNS>;
type AsText<Columns> = { [K in keyof Columns]: string };
export type OrderDetails = Pick<OrderRow, 'id' | (typeof ORDER_DETAIL_COLUMNS)[number]>;

export const ORDER_COLUMN_TYPES: ColumnTypes<OrderRow> = {
  id: 'uuid', user_id: 'uuid', account: 'text', market_id: 'uuid', token_id: 'text', outcome_index: 'smallint', side: 'smallint', order_type: 'text',
  post_only: 'boolean', status: 'text', price_micros: 'bigint', size_base_units: 'bigint', matched_base_units: 'bigint', salt: 'text', maker: 'text',
  signer: 'text', taker: 'text', maker_amount: 'numeric', taker_amount: 'numeric', expiration: 'bigint', nonce: 'numeric', fee_rate_bps: 'integer',
  passive_fee_rate_bps: 'integer', signature_type: 'smallint', signature: 'text', hash: 'text', idempotency_key: 'uuid', metadata: 'jsonb', book_seq: 'bigint',
  delayed_until: 'timestamptz', created_at: 'timestamptz', updated_at: 'timestamptz',
};

/** Rows written straight into the table, as column arrays (column-arrays.ts): for tests and benches that seed a store; the engine's projection writes its own. */
export async function insertOrders(db: Db, rows: OrderRow[]): Promise<void> {
  if (rows.length === 0) return;
  const { columns, arrays } = columnArrays(rows, ORDER_COLUMN_TYPES);
  await sql`INSERT INTO orders (${columns}) SELECT * FROM unnest(${arrays})`.execute(db);
}

/** The hashes among `hashes` that an order already carries (any status: a hash is used once). */
export async function findUsedHashes(db: Db, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db.selectFrom('orders').select('hash').where('hash', '=', sql<string>`ANY(${hashes}::text[])`).execute();
  return new Set(rows.map((r) => r.hash));
}

/**
 * One chunk of the stored orders' hashes, in order after the hash `after` (from the start without
 * it), and the hash the next chunk starts after (none once the last chunk was read). Read off the
 * hashes' unique index, and sent as one text field: both drivers pay per row and field.
 */
export async function readOrderHashChunk(db: Db, limit: number, after: string | undefined): Promise<{ hashes: string[]; next: string | undefined }> {
  const { rows } = await sql<{ hashes: string | null }>`
    SELECT string_agg(hash, ',' ORDER BY hash) AS hashes
    FROM (SELECT hash FROM orders ${after === undefined ? sql`` : sql`WHERE hash > ${after}`} ORDER BY hash LIMIT ${limit}) AS chunk`.execute(db);
  const hashes = rows[0]?.hashes?.split(',') ?? [];
  return { hashes, next: hashes.length === limit ? hashes.at(-1) : undefined };
}

/** The orders that carry these (user, idempotency key) pairs, in one query. */
export async function findOrdersByIdempotencyKeys(db: Db, pairs: { userId: string; key: string }[]): Promise<OrderRow[]> {
  if (pairs.length === 0) return [];
  return db.selectFrom('orders').selectAll()
    .where(sql<boolean>`(user_id, idempotency_key) IN (SELECT * FROM unnest(${pairs.map((p) => p.userId)}::uuid[], ${pairs.map((p) => p.key)}::uuid[]))`)
    .execute();
}

export async function findOrderById(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOrdersByIds(db: Db, ids: string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('orders').selectAll().where('id', 'in', ids).execute();
}

/** The fields an open order's full shape adds to what the engine keeps (`OpenOrderRow`), by id. */
export async function findOrderDetails(db: Db, ids: string[]): Promise<OrderDetails[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('orders').select(['id', ...ORDER_DETAIL_COLUMNS]).where('id', 'in', ids).execute();
}

export async function maxBookSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('orders').select((eb) => eb.fn.max('book_seq').as('max')).executeTakeFirst();
  return row?.max == null ? 0n : BigInt(row.max);
}
