import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { TradeRow } from './trades-repository.ts';

/**
 * Public trade reads (SPEC.md 4.6): the raw trade list and the enriched trade-activity rows.
 * Both are newest first with an id tie-break, so a (time, id) cursor pages through every trade
 * exactly once.
 */

/**
 * The second a trade matched at: the unit of `GET /trades` times and of its keyset. Taken from the
 * UTC wall time (the same number) because that form is IMMUTABLE and so indexable: the wallet
 * indexes of migration 0014 hold it, and a wallet's page is an ordered index scan.
 */
const matchedSecond = sql<number>`floor(extract(epoch from (t.matched_at AT TIME ZONE 'UTC')))`;

export interface TradeListFilter {
  id?: string | undefined;
  marketId?: string | undefined;
  /** Lowercase proxy wallets. `user` matches either side and replaces taker and maker. */
  taker?: string | undefined;
  maker?: string | undefined;
  user?: string | undefined;
  /** Unix seconds, exclusive. */
  beforeSec?: number | undefined;
  afterSec?: number | undefined;
  /** With `beforeSec`: rows at exactly that second whose id sorts below this one are included. */
  beforeId?: string | undefined;
  limit: number;
}

/** `limit + 1` rows so the caller knows whether more follow. */
export async function listTrades(db: Db, f: TradeListFilter): Promise<TradeRow[]> {
  if (f.user === undefined) return page(db, f, { taker: f.taker, maker: f.maker }).execute();
  // Either side: each side is its own ordered index scan (an OR would read all the wallet's trades
  // and sort them); a trade where the user is on both sides comes from the taker side only.
  const user = f.user;
  const takerSide = page(db, f, { taker: user });
  const makerSide = page(db, f, { maker: user }).where('t.taker_wallet', '<>', user);
  return db.selectFrom(sql<TradeRow>`((${takerSide}) UNION ALL (${makerSide}))`.as('t')).selectAll('t')
    .orderBy(matchedSecond, 'desc').orderBy('t.id', 'desc').limit(f.limit + 1).execute();
}

/** The newest `limit + 1` trades matching the filter, with the given wallets. */
function page(db: Db, f: TradeListFilter, wallets: { taker?: string | undefined; maker?: string | undefined }) {
  let query = db.selectFrom('trades as t').selectAll('t');
  if (f.id !== undefined) query = query.where('t.id', '=', f.id);
  if (f.marketId !== undefined) query = query.where('t.market_id', '=', f.marketId);
  if (wallets.taker !== undefined) query = query.where('t.taker_wallet', '=', wallets.taker);
  if (wallets.maker !== undefined) query = query.where('t.maker_wallet', '=', wallets.maker);
  if (f.afterSec !== undefined) query = query.where(sql<boolean>`${matchedSecond} > ${f.afterSec}`);
  if (f.beforeSec !== undefined) {
    query = f.beforeId === undefined
      ? query.where(sql<boolean>`${matchedSecond} < ${f.beforeSec}`)
      : query.where(sql<boolean>`(${matchedSecond}, t.id) < (${f.beforeSec}, ${f.beforeId}::uuid)`);
  }
  return query.orderBy(matchedSecond, 'desc').orderBy('t.id', 'desc').limit(f.limit + 1);
}

/** A confirmed trade with what its TradeActivity row shows: the taker, the market and the event. */
export interface TradeActivityRow {
  id: string;
  matched_at_us: string;
  confirmed_at_us: string | null;
  taker_user_id: string;
  display_name: string | null;
  avatar_url: string | null;
  anonymous: boolean;
  side: number;
  token_id: string;
  price_micros: bigint;
  size_base_units: bigint;
  notional_base_units: bigint;
  market_id: string;
  market_name: string | null;
  token_id1: string | null;
  token_id2: string | null;
  event_id: string | null;
  event_slug: string | null;
  event_name: string | null;
  event_single: boolean | null;
}

export interface TradeActivityFilter {
  /** Epoch microseconds, exclusive; `beforeId` as in `listTrades`. */
  beforeUs?: bigint | undefined;
  beforeId?: string | undefined;
  afterUs?: bigint | undefined;
  eventId?: string | undefined;
  minNotionalBaseUnits: bigint;
  limit: number;
}

const matchedMicros = sql<string>`(extract(epoch from t.matched_at) * 1000000)::bigint`;

/**
 * The earliest match time of a trade not settled yet (MATCHED or MINED; none: infinity), off the
 * partial index `trades_unsettled`. A chain confirms trades in the order of its blocks, not of
 * their matches, so confirmed trades are shown only below it: a poll with `after` set to the
 * newest match time it saw then misses no trade confirmed later.
 */
const settledBefore = sql<Date>`coalesce((select min(u.matched_at) from trades u where u.status in ('MATCHED', 'MINED')), 'infinity'::timestamptz)`;

/** The confirmed trades `GET /trades/activity` shows (every earlier match settled), with what their rows show. */
function activityQuery(db: Db) {
  return db.selectFrom('trades as t')
    .innerJoin('users as u', 'u.id', 't.taker_user_id')
    .leftJoin('markets as m', 'm.id', 't.market_id')
    .leftJoin('events as e', 'e.id', 'm.event_id')
    .select([
      't.id', 't.taker_user_id', 't.side', 't.token_id', 't.price_micros', 't.size_base_units', 't.notional_base_units', 't.market_id',
      'u.display_name', 'u.avatar_url', 'u.anonymous',
      'm.name as market_name', 'm.token_id1', 'm.token_id2',
      'e.id as event_id', 'e.slug as event_slug', 'e.name as event_name', 'e.single as event_single',
      matchedMicros.as('matched_at_us'),
      sql<string | null>`(extract(epoch from t.confirmed_at) * 1000000)::bigint`.as('confirmed_at_us'),
    ])
    .where('t.status', '=', 'CONFIRMED')
    .where(sql<boolean>`t.matched_at < ${settledBefore}`);
}

/** Confirmed trades every earlier match of which has settled, newest first; `limit + 1` rows. */
export async function listTradeActivity(db: Db, f: TradeActivityFilter): Promise<TradeActivityRow[]> {
  let query = activityQuery(db).where('t.notional_base_units', '>=', f.minNotionalBaseUnits);
  if (f.eventId !== undefined) query = query.where('m.event_id', '=', f.eventId);
  if (f.afterUs !== undefined) query = query.where(sql<boolean>`${matchedMicros} > ${f.afterUs}`);
  if (f.beforeUs !== undefined) {
    query = f.beforeId === undefined
      ? query.where(sql<boolean>`${matchedMicros} < ${f.beforeUs}`)
      : query.where(sql<boolean>`(${matchedMicros}, t.id) < (${f.beforeUs}, ${f.beforeId}::uuid)`);
  }
  const rows = await query.orderBy('t.matched_at', 'desc').orderBy('t.id', 'desc').limit(f.limit + 1).execute();
  return rows.map(normalise);
}

/**
 * The activity rows of confirmed trades among `ids` that `GET /trades/activity` shows now (every
 * earlier match settled), for the live feed: oldest match first.
 */
export async function findTradeActivity(db: Db, ids: string[]): Promise<TradeActivityRow[]> {
  if (ids.length === 0) return [];
  const rows = await activityQuery(db).where('t.id', 'in', ids).orderBy('t.matched_at', 'asc').orderBy('t.id', 'asc').execute();
  return rows.map(normalise);
}

/**
 * The confirmed trades `GET /trades/activity` does not show yet (an earlier match is unsettled),
 * oldest match first, at most `limit`: what an engine that starts leading holds back from the
 * live feed until they are shown (engine/announcer.ts). Read off `trades_by_time` from the earliest
 * unsettled match on; none when every match has settled.
 */
export async function findUnshownTradeIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('trades as t').select('t.id')
    .where('t.status', '=', 'CONFIRMED')
    .where(sql<boolean>`t.matched_at >= ${settledBefore}`)
    .orderBy('t.matched_at', 'asc').orderBy('t.id', 'asc').limit(limit).execute();
  return rows.map((row) => row.id);
}

function normalise<T extends { matched_at_us: unknown; confirmed_at_us: unknown; price_micros: unknown; size_base_units: unknown; notional_base_units: unknown }>(row: T): T & TradeActivityRow {
  return {
    ...row,
    matched_at_us: String(row.matched_at_us),
    confirmed_at_us: row.confirmed_at_us == null ? null : String(row.confirmed_at_us),
    price_micros: BigInt(row.price_micros as bigint),
    size_base_units: BigInt(row.size_base_units as bigint),
    notional_base_units: BigInt(row.notional_base_units as bigint),
  } as T & TradeActivityRow;
}
