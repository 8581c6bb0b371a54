import { sql, type RawBuilder } from 'kysely';
import { PRICE_ONE } from '../core/money.ts';
import type { Db } from './database.ts';

/**
 * Volume and liquidity (EXTENSIONS.md section 11). Volume: the taker notional of trades (FAILED
 * ones undone, so left out), read from the sums triggers on trades keep (migration 0027: all-time
 * per market, and per market and UTC hour), so a read does not grow with the trades. Liquidity:
 * the USD notional of resting orders, price × remaining size, over open orders that are in a book
 * (not waiting out a speed bump). All results are base units.
 */

const HOUR_MS = 3_600_000;

/**
 * The SQL of the volume of the markets `inScope` names (a condition on a market id column):
 * all-time, or since `since`: the whole hours after it from the hourly sums, and the trades of
 * its own hour from `since` on read one by one, so the window starts exactly at `since`.
 */
function volumeSql(inScope: (marketId: RawBuilder<unknown>) => RawBuilder<unknown>, since?: Date): RawBuilder<string> {
  if (!since) return sql<string>`(SELECT COALESCE(SUM(v.volume_base_units), 0) FROM market_volume_totals v WHERE ${inScope(sql`v.market_id`)})`;
  const nextHour = new Date(Math.floor(since.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  return sql<string>`((SELECT COALESCE(SUM(h.volume_base_units), 0) FROM market_volume_hours h WHERE ${inScope(sql`h.market_id`)} AND h.hour >= ${nextHour})
    + (SELECT COALESCE(SUM(t.notional_base_units), 0) FROM trades t
      WHERE ${inScope(sql`t.market_id`)} AND t.status <> 'FAILED' AND t.matched_at >= ${since} AND t.matched_at < ${nextHour}))`;
}

/** The SQL of one event's volume, all-time or since `since`; `eventId` is the outer query's event id column. */
export function eventVolumeSql(eventId: RawBuilder<unknown>, since?: Date): RawBuilder<string> {
  return volumeSql((marketId) => sql`${marketId} IN (SELECT vm.id FROM markets vm WHERE vm.event_id = ${eventId})`, since);
}

/** The SQL of one event's liquidity in base units (rounded down once, after the sum). */
export function eventLiquiditySql(eventId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(SELECT div(COALESCE(SUM(o.price_micros::numeric * (o.size_base_units - o.matched_base_units)), 0), ${sql.lit(PRICE_ONE)})
    FROM orders o JOIN markets lm ON lm.id = o.market_id
    WHERE lm.event_id = ${eventId} AND o.status IN ('PENDING', 'EXECUTING') AND o.delayed_until IS NULL)`;
}

export interface Volume {
  totalBaseUnits: bigint;
  last24hBaseUnits: bigint;
}

/** All-time and since-`since` volume of each market (markets without trades are absent). */
export async function marketVolumes(db: Db, marketIds: string[], since: Date): Promise<Map<string, Volume>> {
  if (marketIds.length === 0) return new Map();
  const ofMarket = (marketId: RawBuilder<unknown>) => sql`${marketId} = m.id`;
  const { rows } = await sql<{ market_id: string; total: string; recent: string }>`
    SELECT m.id AS market_id, ${volumeSql(ofMarket)} AS total, ${volumeSql(ofMarket, since)} AS recent
    FROM unnest(${marketIds}::uuid[]) AS m(id)`.execute(db);
  return new Map(rows.filter((r) => r.total !== '0').map((r) => [r.market_id, { totalBaseUnits: BigInt(r.total), last24hBaseUnits: BigInt(r.recent) }]));
}

/** All-time volume of one event. */
export async function eventVolume(db: Db, eventId: string): Promise<bigint> {
  const row = await sql<{ v: string }>`SELECT ${eventVolumeSql(sql`${eventId}::uuid`)} AS v`.execute(db);
  return BigInt(row.rows[0]!.v);
}

/** What a market's trades say of its price: the last one's taker token and price (its chance), and when the first was matched. */
export interface MarketTradeMarks {
  last: { tokenId: string; priceMicros: bigint };
  firstMatchedAt: Date;
}

/**
 * The trade marks of each market (markets without trades are absent); FAILED trades are undone, so
 * left out. Each market's two ends of its trades index (market, time): reading every trade of a
 * market (DISTINCT ON by sequence) took 1.3 s a read with a million trades, this 1 ms. The last
 * trade is the latest matched, the journal's order breaking a tie.
 */
export async function marketTradeMarks(db: Db, marketIds: string[]): Promise<Map<string, MarketTradeMarks>> {
  if (marketIds.length === 0) return new Map();
  const { rows } = await sql<{ market_id: string; token_id: string; price_micros: string; first_matched_at: Date }>`
    SELECT m.id AS market_id, l.token_id, l.price_micros::text AS price_micros, f.matched_at AS first_matched_at
    FROM unnest(${marketIds}::uuid[]) AS m(id)
    JOIN LATERAL (SELECT t.token_id, t.price_micros FROM trades t WHERE t.market_id = m.id AND t.status <> 'FAILED' ORDER BY t.matched_at DESC, t.seq DESC LIMIT 1) l ON true
    JOIN LATERAL (SELECT t.matched_at FROM trades t WHERE t.market_id = m.id AND t.status <> 'FAILED' ORDER BY t.matched_at LIMIT 1) f ON true`.execute(db);
  return new Map(rows.map((r) => [r.market_id, { last: { tokenId: r.token_id, priceMicros: BigInt(r.price_micros) }, firstMatchedAt: new Date(r.first_matched_at) }]));
}
