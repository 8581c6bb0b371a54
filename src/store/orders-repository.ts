import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { OrdersTable, OrderStatus } from './schema.ts';

export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;

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
export type OrderDetails = Pick<OrderRow, 'id' | (typeof ORDER_DETAIL_COLUMNS)[number]>;

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

/** Open orders per read of `openOrderChunks`. */
const OPEN_ORDERS_PER_READ = 100_000;

/**
 * Open orders, to rebuild the books after a restart: only the columns the engine keeps, in time
 * priority within each market (`book_seq`), in chunks read one after the other by keyset off
 * `orders_open_by_market` (market, book_seq), so the store never sorts them. The first read starts
 * at the call and each next one as soon as the previous arrives, so on PostgreSQL the store reads
 * the next chunk while this process builds books from the last.
 *
 * Each order travels as one comma-separated text line (no column it holds can contain a comma):
 * both drivers pay per field, PGlite's protocol parser most, and one field per row instead of
 * eighteen loads a million orders in seconds instead of a minute.
 */
export function openOrderChunks(db: Db, perRead = OPEN_ORDERS_PER_READ): AsyncGenerator<OpenOrderRow[]> {
  return chunksFrom(db, perRead, readOpenOrderLines(db, perRead));
}

async function* chunksFrom(db: Db, perRead: number, first: Promise<string[]>): AsyncGenerator<OpenOrderRow[]> {
  for (let reading: Promise<string[]> | undefined = first; reading; ) {
    const lines: string[] = await reading;
    const last: OpenOrderRow | undefined = lines.length === perRead ? parseOpenOrderLine(lines.at(-1)!) : undefined;
    reading = last && readOpenOrderLines(db, perRead, last);
    yield lines.map(parseOpenOrderLine);
  }
}

/** One chunk of open orders after `after` (from the start without it), as text lines. */
function readOpenOrderLines(db: Db, perRead: number, after?: Pick<OpenOrderRow, 'market_id' | 'book_seq'>): Promise<string[]> {
  const read = sql<{ line: string }>`
    SELECT concat_ws(',', id, user_id, account, market_id, token_id, outcome_index, side, order_type, post_only::int, status,
      price_micros, size_base_units, matched_base_units, expiration, fee_rate_bps, passive_fee_rate_bps, book_seq,
      coalesce((extract(epoch FROM delayed_until) * 1000)::bigint::text, '')) AS line
    FROM orders
    WHERE status IN ('PENDING', 'EXECUTING') ${after ? sql`AND (market_id, book_seq) > (${after.market_id}::uuid, ${after.book_seq}::bigint)` : sql``}
    ORDER BY market_id, book_seq LIMIT ${perRead}`.execute(db).then(({ rows }) => rows.map((row) => row.line));
  // A read started ahead whose chunk is never asked for (the caller gave up) must not fail unhandled.
  read.catch(() => undefined);
  return read;
}

/** The text of each of `OPEN_ORDER_COLUMNS`, in that order: one line of `openOrderChunks`. */
type OpenOrderLine = AsText<typeof OPEN_ORDER_COLUMNS>;
type AsText<Columns> = { [K in keyof Columns]: string };

function parseOpenOrderLine(line: string): OpenOrderRow {
  const [id, userId, account, marketId, tokenId, outcome, side, type, postOnly, status, price, size, matched, expiration, takerFee, makerFee, bookSeq, delayedUntilMs] =
    line.split(',') as unknown as OpenOrderLine;
  return {
    id, user_id: userId, account, market_id: marketId, token_id: tokenId, outcome_index: Number(outcome), side: Number(side),
    order_type: type as OpenOrderRow['order_type'], post_only: postOnly === '1', status: status as OrderStatus, price_micros: BigInt(price),
    size_base_units: BigInt(size), matched_base_units: BigInt(matched), expiration: BigInt(expiration), fee_rate_bps: Number(takerFee),
    passive_fee_rate_bps: Number(makerFee), book_seq: BigInt(bookSeq), delayed_until: delayedUntilMs ? new Date(Number(delayedUntilMs)) : null,
  };
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
