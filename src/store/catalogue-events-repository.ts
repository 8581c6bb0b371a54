import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from './database.ts';
import type { Database, EventsTable } from './schema.ts';
import { eventLiquiditySql, eventVolumeSql } from './catalogue-stats-repository.ts';

export type EventRow = Selectable<EventsTable>;
export type EventStatus = 'DRAFT' | 'ACTIVE' | 'RESOLVED' | 'ENDED';

/** An event row with what reads add: the status as the clock sees it, volume and liquidity. */
export type EventReadRow = EventRow & {
  effective_status: EventStatus;
  volume: string;
  volume_24h: string;
  liquidity: string;
};

export type EventSortKey = 'id' | 'name' | 'startDate' | 'endDate' | 'tradeVolumeUsd' | 'tradeVolumeUsd24h' | 'createdAt' | 'eventStatus' | 'slug' | 'liquidity';

/** GET /events, resolved to values: every bound is already in base units or a Date. */
export interface EventListQuery {
  now: Date;
  /** Start of the 24-hour volume window. */
  since24h: Date;
  includeDraft: boolean;
  includeProtected: boolean;
  status?: EventStatus | undefined;
  term?: string | undefined;
  categoryId?: string | undefined;
  tagId?: string | undefined;
  /** [from, to): the `ends` window. */
  endsWithin?: { from: Date; to: Date } | undefined;
  endDateFrom?: Date | undefined;
  endDateTo?: Date | undefined;
  createdSince?: Date | undefined;
  minLiquidityBaseUnits?: bigint | undefined;
  maxLiquidityBaseUnits?: bigint | undefined;
  isSettled?: boolean | undefined;
  isResolved?: boolean | undefined;
  single?: boolean | undefined;
  sortBy: EventSortKey;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  /** Count at most this many matches; undefined skips the count. */
  countCap?: number | undefined;
}

type Eb = ExpressionBuilder<Database & { e: EventsTable }, 'e'>;

const effectiveStatusSql = (now: Date) =>
  sql<EventStatus>`(CASE WHEN e.status = 'ACTIVE' AND e.end_date IS NOT NULL AND e.end_date <= ${now} THEN 'ENDED' ELSE e.status END)`;

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function readSelection(now: Date, since24h: Date) {
  return [
    effectiveStatusSql(now).as('effective_status'),
    eventVolumeSql(sql.ref('e.id')).as('volume'),
    eventVolumeSql(sql.ref('e.id'), since24h).as('volume_24h'),
    eventLiquiditySql(sql.ref('e.id')).as('liquidity'),
  ] as const;
}

function filters(q: EventListQuery) {
  return (eb: Eb): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [];
    if (!q.includeDraft) all.push(eb('e.status', '!=', 'DRAFT'));
    if (!q.includeProtected) all.push(eb('e.protected', '=', false));
    if (q.status) all.push(sql<SqlBool>`${effectiveStatusSql(q.now)} = ${q.status}`);
    if (q.term) {
      const pattern = likePattern(q.term);
      all.push(eb.or([eb('e.name', 'ilike', pattern), eb('e.slug', 'ilike', pattern), eb('e.description', 'ilike', pattern)]));
    }
    if (q.categoryId) all.push(eb.exists(eb.selectFrom('event_categories').select('event_id').whereRef('event_id', '=', 'e.id').where('category_id', '=', q.categoryId)));
    if (q.tagId) all.push(eb.exists(eb.selectFrom('event_tags').select('event_id').whereRef('event_id', '=', 'e.id').where('tag_id', '=', q.tagId)));
    if (q.endsWithin) all.push(eb('e.end_date', '>=', q.endsWithin.from), eb('e.end_date', '<', q.endsWithin.to));
    if (q.endDateFrom) all.push(eb('e.end_date', '>=', q.endDateFrom));
    if (q.endDateTo) all.push(eb('e.end_date', '<=', q.endDateTo));
    if (q.createdSince) all.push(eb('e.created_at', '>=', q.createdSince));
    if (q.minLiquidityBaseUnits !== undefined) all.push(sql<SqlBool>`${eventLiquiditySql(sql.ref('e.id'))} >= ${q.minLiquidityBaseUnits.toString()}::numeric`);
    if (q.maxLiquidityBaseUnits !== undefined) all.push(sql<SqlBool>`${eventLiquiditySql(sql.ref('e.id'))} <= ${q.maxLiquidityBaseUnits.toString()}::numeric`);
    for (const [column, value] of [['is_settled', q.isSettled], ['is_resolved', q.isResolved]] as const) {
      if (value === undefined) continue;
      let markets = eb.selectFrom('markets as fm').select('fm.id').whereRef('fm.event_id', '=', 'e.id').where(`fm.${column}`, '=', value);
      if (!q.includeDraft) markets = markets.where('fm.status', '!=', 'DRAFT');
      all.push(eb.exists(markets));
    }
    if (q.single !== undefined) all.push(eb('e.single', '=', q.single));
    return eb.and(all);
  };
}

function sortExpression(q: EventListQuery) {
  switch (q.sortBy) {
    case 'id': return sql.ref('e.id');
    case 'name': return sql.ref('e.name');
    case 'slug': return sql.ref('e.slug');
    case 'startDate': return sql.ref('e.start_date');
    case 'endDate': return sql.ref('e.end_date');
    case 'createdAt': return sql.ref('e.created_at');
    case 'eventStatus': return effectiveStatusSql(q.now);
    case 'tradeVolumeUsd': return eventVolumeSql(sql.ref('e.id'));
    case 'tradeVolumeUsd24h': return eventVolumeSql(sql.ref('e.id'), q.since24h);
    case 'liquidity': return eventLiquiditySql(sql.ref('e.id'));
  }
}

/** One page of events, and (when asked) the number of matches counted up to a cap. */
export async function listEvents(db: Db, q: EventListQuery): Promise<{ rows: EventReadRow[]; total: number | null; totalCapped: boolean }> {
  const direction = q.order === 'ASC' ? sql`ASC` : sql`DESC`;
  const rows = await db.selectFrom('events as e').selectAll('e').select(readSelection(q.now, q.since24h))
    .where(filters(q))
    // Nulls (events without an end date) last either way; the id makes pages stable.
    .orderBy(sql`${sortExpression(q)} ${direction} NULLS LAST`)
    .orderBy(sql`e.id ${direction}`)
    .offset(q.offset).limit(q.limit).execute();
  if (q.countCap === undefined) return { rows: rows as EventReadRow[], total: null, totalCapped: false };
  const counted = await db.selectFrom((sub) => sub.selectFrom('events as e').select('e.id').where(filters(q)).limit(q.countCap! + 1).as('m'))
    .select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const n = Number(counted.n);
  return { rows: rows as EventReadRow[], total: Math.min(n, q.countCap), totalCapped: n > q.countCap };
}

/** One event by id or slug, with its read columns; DRAFT only when asked. */
export async function findEvent(db: Db, key: { id?: string; slug?: string }, options: { now: Date; since24h: Date; includeDraft: boolean }): Promise<EventReadRow | undefined> {
  let query = db.selectFrom('events as e').selectAll('e').select(readSelection(options.now, options.since24h));
  query = key.id !== undefined ? query.where('e.id', '=', key.id) : query.where('e.slug', '=', key.slug ?? '');
  if (!options.includeDraft) query = query.where('e.status', '!=', 'DRAFT');
  return (await query.executeTakeFirst()) as EventReadRow | undefined;
}

export async function findEventRow(db: Db, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertEvent(db: Db, row: Insertable<EventsTable>): Promise<void> {
  await db.insertInto('events').values(row).execute();
}

export async function updateEvent(db: Db, id: string, changes: Updateable<EventsTable>): Promise<void> {
  await db.updateTable('events').set(changes).where('id', '=', id).execute();
}

/** The slugs among `candidates` that events already use. */
export async function findTakenEventSlugs(db: Db, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const rows = await db.selectFrom('events').select('slug').where('slug', 'in', candidates).execute();
  return new Set(rows.map((r) => r.slug));
}
