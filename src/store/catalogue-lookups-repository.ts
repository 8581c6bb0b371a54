import { sql } from 'kysely';
import type { Db } from './database.ts';

/** Markets of these outcome tokens, with the outcome label of each token. */
export async function findMarketsByTokenIds(db: Db, tokenIds: string[]) {
  if (tokenIds.length === 0) return [];
  return db.selectFrom('markets')
    .select(['id', 'token_id1', 'token_id2', 'outcome1', 'outcome2'])
    .where((eb) => eb.or([eb('token_id1', 'in', tokenIds), eb('token_id2', 'in', tokenIds)]))
    .execute();
}

/** Markets with the event fields an order listing shows beside them (SPEC.md OrderMarketInfo). */
export async function findMarketsWithEvents(db: Db, marketIds: string[]) {
  if (marketIds.length === 0) return [];
  return db.selectFrom('markets as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .select(['m.id', 'm.icon', 'm.slug', 'm.name', 'm.outcome1', 'm.outcome2', 'e.id as event_id', 'e.name as event_name', 'e.icon as event_icon', 'e.series_layout'])
    .select((eb) => eb.selectFrom('markets as sibling').whereRef('sibling.event_id', '=', 'm.event_id').select((s) => s.fn.countAll<string>().as('n')).as('market_count'))
    .where('m.id', 'in', marketIds)
    .execute();
}

/** Ids of the markets whose name contains `partial`, ignoring case. */
export async function findMarketIdsByName(db: Db, partial: string): Promise<string[]> {
  const pattern = `%${partial.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.selectFrom('markets').select('id').where(sql<boolean>`name ILIKE ${pattern}`).execute();
  return rows.map((r) => r.id);
}

/** The published markets of an event, or undefined when no such event exists. */
export async function findPublishedMarketIdsOfEvent(db: Db, eventId: string): Promise<string[] | undefined> {
  const event = await db.selectFrom('events').select('id').where('id', '=', eventId).executeTakeFirst();
  if (!event) return undefined;
  const rows = await db.selectFrom('markets').select('id').where('event_id', '=', eventId).where('status', '!=', 'DRAFT').orderBy('position').execute();
  return rows.map((r) => r.id);
}

/** Events that have at least one ACTIVE, unresolved market: the events an order book serves. */
function eventsWithActiveMarkets(db: Db) {
  return db.selectFrom('events as e').where((eb) =>
    eb.exists(eb.selectFrom('markets as m').select('m.id').whereRef('m.event_id', '=', 'e.id').where('m.status', '=', 'ACTIVE').where('m.is_resolved', '=', false)));
}

/** A page of those events, newest first (id breaks ties), with their active markets. */
export async function listOrderBookEvents(db: Db, page: { limit: number; offset: number }) {
  const events = await eventsWithActiveMarkets(db)
    .select(['e.id', 'e.name', 'e.slug', 'e.created_at', 'e.start_date', 'e.end_date', 'e.single'])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const markets = events.length === 0 ? [] : await db.selectFrom('markets')
    .select(['id', 'event_id', 'name', 'token_id1', 'token_id2', 'outcome1', 'outcome2', 'order_fee_rate_bps', 'passive_order_fee_rate_bps'])
    .where('event_id', 'in', events.map((e) => e.id))
    .where('status', '=', 'ACTIVE')
    .where('is_resolved', '=', false)
    .orderBy('position')
    .execute();
  return events.map((event) => ({ ...event, markets: markets.filter((m) => m.event_id === event.id) }));
}

/** How many such events there are, counting no further than `cap`. */
export async function countOrderBookEvents(db: Db, cap: number): Promise<number> {
  const capped = eventsWithActiveMarkets(db).select('e.id').limit(cap);
  const row = await db.selectFrom(capped.as('capped')).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}
