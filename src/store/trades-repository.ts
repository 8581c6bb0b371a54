import { sql, type Selectable } from 'kysely';
import { columnArrays, type ColumnTypes } from './column-arrays.ts';
import type { Db } from './database.ts';
import type { TradesTable } from './schema.ts';

export type TradeRow = Selectable<TradesTable>;

export const TRADE_COLUMN_TYPES: ColumnTypes<TradeRow> = {
  id: 'uuid', seq: 'bigint', market_id: 'uuid', kind: 'text', status: 'text', token_id: 'text', side: 'smallint', price_micros: 'bigint',
  size_base_units: 'bigint', notional_base_units: 'bigint', maker_token_id: 'text', maker_side: 'smallint', maker_price_micros: 'bigint',
  taker_order_id: 'uuid', maker_order_id: 'uuid', taker_user_id: 'uuid', maker_user_id: 'uuid', taker_wallet: 'text', maker_wallet: 'text',
  taker_fee_base_units: 'bigint', maker_fee_base_units: 'bigint', tx_hash: 'text', matched_at: 'timestamptz', mined_at: 'timestamptz', confirmed_at: 'timestamptz',
};

/** One insert for a whole engine batch, its rows as column arrays (column-arrays.ts). */
export async function insertTrades(db: Db, rows: TradeRow[]): Promise<void> {
  if (rows.length > 0) await tradesInsert(rows).execute(db);
}

/** The INSERT of `insertTrades`, for a statement that writes more (engine-batch-writes.ts). */
export function tradesInsert(rows: TradeRow[]) {
  const { columns, arrays } = columnArrays(rows, TRADE_COLUMN_TYPES);
  return sql`INSERT INTO trades (${columns}) SELECT * FROM unnest(${arrays})`;
}

/** Trades waiting to be mined, oldest first. */
export async function findTradesByStatus(db: Db, status: 'MATCHED' | 'MINED', limit: number): Promise<TradeRow[]> {
  return db.selectFrom('trades').selectAll().where('status', '=', status).orderBy('seq').limit(limit).execute();
}

export async function markTradesMined(db: Db, mined: { id: string; txHash: string }[], now: Date): Promise<void> {
  if (mined.length === 0) return;
  const values = sql.join(mined.map((m) => sql`(${m.id}::uuid, ${m.txHash}::text)`));
  await sql`
    UPDATE trades AS t SET status = 'MINED', tx_hash = v.tx_hash, mined_at = ${now}
    FROM (VALUES ${values}) AS v(id, tx_hash)
    WHERE t.id = v.id AND t.status = 'MATCHED'`.execute(db);
}

/** Confirms the first `limit` MINED trades (in trade order) in one statement; returns them as they are now. */
export async function confirmMinedTrades(db: Db, now: Date, limit: number): Promise<TradeRow[]> {
  const confirmed = await db.updateTable('trades').set({ status: 'CONFIRMED', confirmed_at: now })
    .where('id', 'in', (eb) => eb.selectFrom('trades').select('id').where('status', '=', 'MINED').orderBy('seq').limit(limit))
    .where('status', '=', 'MINED')
    .returningAll().execute();
  return confirmed.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
}


export async function maxTradeSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('trades').select((eb) => eb.fn.max('seq').as('max')).executeTakeFirst();
  return row?.max == null ? 0n : BigInt(row.max);
}

/** The latest trade of every market that has traded (DISTINCT ON: one row per market). */
export async function findLatestTradePerMarket(db: Db): Promise<TradeRow[]> {
  return db.selectFrom('trades').selectAll().distinctOn('market_id').where('status', '!=', 'FAILED')
    .orderBy('market_id').orderBy('seq', 'desc').execute();
}
