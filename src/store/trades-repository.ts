import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { TradesTable } from './schema.ts';

export type TradeRow = Selectable<TradesTable>;
export type NewTradeRow = Insertable<TradesTable>;

export async function insertTrades(db: Db, rows: NewTradeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('trades').values(rows).execute();
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

export async function markTradesConfirmed(db: Db, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('trades').set({ status: 'CONFIRMED', confirmed_at: now }).where('id', 'in', ids).where('status', '=', 'MINED').execute();
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
