import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from './database.ts';
import type { MarketsTable } from './schema.ts';

export type MarketRow = Selectable<MarketsTable>;
export type NewMarketRow = Insertable<MarketsTable>;

/** The settlement ids a market receives when its event is published. */
export interface MarketPublication {
  id: string;
  conditionId: string;
  questionId: string;
  tokenId1: string;
  tokenId2: string;
  onchainMarketId: string;
  transactionHash: string;
}

export async function insertMarkets(db: Db, rows: NewMarketRow[]): Promise<MarketRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('markets').values(rows).returningAll().execute();
}

export async function findMarketById(db: Db, id: string): Promise<MarketRow | undefined> {
  return db.selectFrom('markets').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findMarketBySlug(db: Db, slug: string): Promise<MarketRow | undefined> {
  return db.selectFrom('markets').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** Markets by id, in no particular order; DRAFT ones only when asked. */
export async function findMarketsByIds(db: Db, ids: string[], includeDraft: boolean): Promise<MarketRow[]> {
  if (ids.length === 0) return [];
  let query = db.selectFrom('markets').selectAll().where('id', 'in', ids);
  if (!includeDraft) query = query.where('status', '!=', 'DRAFT');
  return query.execute();
}

/** The markets of events in event order (position, then creation); DRAFT ones only when asked. */
export async function findMarketsOfEvents(db: Db, eventIds: string[], includeDraft: boolean): Promise<MarketRow[]> {
  if (eventIds.length === 0) return [];
  let query = db.selectFrom('markets').selectAll().where('event_id', 'in', eventIds);
  if (!includeDraft) query = query.where('status', '!=', 'DRAFT');
  return query.orderBy('event_id').orderBy('position').execute();
}

/** The most recent `limit` markets of one event (by start date, then creation), for marketScope RECENT. */
export async function findRecentMarketsOfEvent(db: Db, eventId: string, includeDraft: boolean, limit: number): Promise<MarketRow[]> {
  let query = db.selectFrom('markets').selectAll().where('event_id', '=', eventId);
  if (!includeDraft) query = query.where('status', '!=', 'DRAFT');
  const rows = await query.orderBy((eb) => eb.fn.coalesce('start_date', 'created_at'), 'desc').orderBy('position', 'desc').limit(limit).execute();
  return rows.sort((a, b) => a.position - b.position);
}

/** Published markets of the events that run at `now` (startDate ≤ now < endDate), earliest start first. */
export async function findCurrentMarketsOfEvents(db: Db, eventIds: string[], now: Date): Promise<MarketRow[]> {
  if (eventIds.length === 0) return [];
  return db.selectFrom('markets').selectAll().where('event_id', 'in', eventIds).where('status', '!=', 'DRAFT')
    .where('start_date', '<=', now).where('end_date', '>', now).orderBy('start_date').execute();
}

export async function countMarketsOfEvent(db: Db, eventId: string): Promise<number> {
  const row = await db.selectFrom('markets').select((eb) => eb.fn.countAll<string>().as('n')).where('event_id', '=', eventId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The slugs among `candidates` that markets already use. */
export async function findTakenMarketSlugs(db: Db, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const rows = await db.selectFrom('markets').select('slug').where('slug', 'in', candidates).execute();
  return new Set(rows.map((r) => r.slug));
}

export async function updateMarket(db: Db, id: string, changes: Updateable<MarketsTable>): Promise<MarketRow | undefined> {
  return db.updateTable('markets').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Makes DRAFT markets ACTIVE with their settlement ids; returns the ids it changed. */
export async function publishMarkets(db: Db, publications: MarketPublication[], now: Date): Promise<string[]> {
  const published: string[] = [];
  for (const p of publications) {
    const row = await db.updateTable('markets').set({
      status: 'ACTIVE',
      condition_id: p.conditionId,
      question_id: p.questionId,
      token_id1: p.tokenId1,
      token_id2: p.tokenId2,
      onchain_market_id: p.onchainMarketId,
      transaction_hash: p.transactionHash,
      is_initialized: true,
      is_registered: true,
      updated_at: now,
    }).where('id', '=', p.id).where('status', '=', 'DRAFT').returning('id').executeTakeFirst();
    if (row) published.push(row.id);
  }
  return published;
}

/** Every published market, resolved ones too, for the engine's first state. */
/** A market with its event's oracle reward, as the engine's directory reads it. */
export type TradingMarketRow = MarketRow & { event_reward_base_units: bigint };

const tradingMarkets = (db: Db) => db.selectFrom('markets').innerJoin('events', 'events.id', 'markets.event_id').selectAll('markets').select('events.reward_base_units as event_reward_base_units');

export async function findTradingMarketById(db: Db, id: string): Promise<TradingMarketRow | undefined> {
  return tradingMarkets(db).where('markets.id', '=', id).executeTakeFirst();
}

export async function findPublishedMarkets(db: Db): Promise<TradingMarketRow[]> {
  return tradingMarkets(db).where('markets.status', '!=', 'DRAFT').orderBy('markets.created_at').orderBy('markets.id').execute();
}

/** Published markets that still trade or could (not RESOLVED), for the engine's directory. */
export async function findUnresolvedPublishedMarkets(db: Db): Promise<TradingMarketRow[]> {
  return tradingMarkets(db).where('markets.status', '=', 'ACTIVE').orderBy('markets.created_at').orderBy('markets.id').execute();
}
