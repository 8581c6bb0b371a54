import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { PriceTargetsTable } from './schema.ts';

export type PriceTargetRow = Selectable<PriceTargetsTable>;

export async function insertPriceTargets(db: Db, rows: Insertable<PriceTargetsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('price_targets').values(rows).execute();
}

export async function findPriceTargets(db: Db, marketIds: string[]): Promise<Map<string, PriceTargetRow>> {
  if (marketIds.length === 0) return new Map();
  const rows = await db.selectFrom('price_targets').selectAll().where('market_id', 'in', marketIds).execute();
  return new Map(rows.map((r) => [r.market_id, r]));
}

/**
 * Sets a target not final yet; with `onlyUnset`, only one still unknown (a derived CLOSE_PRICE
 * target is kept). Undefined when the market has no target to set.
 */
export async function setTargetPrice(db: Db, marketId: string, price: bigint, onlyUnset: boolean): Promise<PriceTargetRow | undefined> {
  let query = db.updateTable('price_targets').set({ target_price: price }).where('market_id', '=', marketId).where('final_at', 'is', null);
  if (onlyUnset) query = query.where('target_price', 'is', null);
  return query.returningAll().executeTakeFirst();
}

/**
 * Makes a market's target final if it is still `price` (the one about to be proposed from), in one
 * statement, so an operator's change either lands before it (and this refuses) or is refused after
 * it. True when the target is `price` and final now (again, for a proposal that is retried).
 */
export async function finalizeTargetPrice(db: Db, marketId: string, price: bigint, at: Date): Promise<boolean> {
  const row = await db.updateTable('price_targets').set({ final_at: sql`coalesce(final_at, ${at})` }).where('market_id', '=', marketId).where('target_price', '=', price)
    .returning('market_id').executeTakeFirst();
  return row !== undefined;
}

/**
 * Published, unresolved markets whose resolveAt has passed and whose question has no proposal
 * yet: the ones the price job should propose for (oldest first, at most `limit`).
 */
export async function findDueUnproposed(db: Db, now: Date, limit: number): Promise<PriceTargetRow[]> {
  return db.selectFrom('price_targets as t').innerJoin('markets as m', 'm.id', 't.market_id').selectAll('t')
    .where('m.status', '=', 'ACTIVE').where('t.resolve_at', '<=', now)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('oracle_questions as q').select('q.market_id').whereRef('q.market_id', '=', 't.market_id'))))
    .orderBy('t.resolve_at').orderBy('t.market_id').limit(limit).execute();
}

/** CLOSE_PRICE targets from the feed that are due (targetAt passed) and still unknown. */
export async function findUnknownTargets(db: Db, now: Date, limit: number): Promise<PriceTargetRow[]> {
  return db.selectFrom('price_targets as t').innerJoin('markets as m', 'm.id', 't.market_id').selectAll('t')
    .where('m.status', '=', 'ACTIVE').where('t.target_type', '=', 'CLOSE_PRICE').where('t.source', '=', 'oracle')
    .where('t.target_price', 'is', null).where('t.target_at', '<=', now)
    .orderBy('t.target_at').orderBy('t.market_id').limit(limit).execute();
}

/** The pairs a pull feed must follow: those of unresolved price-target markets and enabled templates. */
export async function findFollowedPairs(db: Db): Promise<string[]> {
  const rows = await sql<{ pair: string }>`
    SELECT DISTINCT t.pair FROM price_targets t JOIN markets m ON m.id = t.market_id WHERE m.status <> 'RESOLVED'
    UNION SELECT DISTINCT pair FROM templates WHERE enabled`.execute(db);
  return rows.rows.map((r) => r.pair).sort();
}
