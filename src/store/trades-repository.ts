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

/** Rows written straight into the table, as column arrays (column-arrays.ts): for tests and benches that seed a store; the engine's projection writes its own. */
export async function insertTrades(db: Db, rows: TradeRow[]): Promise<void> {
  if (rows.length === 0) return;
  const { columns, arrays } = columnArrays(rows, TRADE_COLUMN_TYPES);
  await sql`INSERT INTO trades (${columns}) SELECT * FROM unnest(${arrays})`.execute(db);
}

export async function maxTradeSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('trades').select((eb) => eb.fn.max('seq').as('max')).executeTakeFirst();
  return row?.max == null ? 0n : BigInt(row.max);
}

