import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * Price-history points from the trades table. A token's price at a trade is the trade price when
 * the taker traded that token, else its complement (one book per market, EXTENSIONS.md section 11).
 */

/** The first trade of a market (FAILED ones never happened), in Unix seconds. */
export async function firstTradeSec(db: Db, marketId: string): Promise<number | undefined> {
  const row = await db.selectFrom('trades').select(sql<string>`floor(extract(epoch from min(matched_at)))`.as('first'))
    .where('market_id', '=', marketId).where('status', '<>', 'FAILED').executeTakeFirst();
  return row?.first == null ? undefined : Number(row.first);
}

export interface BucketRange {
  marketId: string;
  tokenId: string;
  /** Unix seconds of the first and last bucket start, and the bucket width. */
  fromSec: number;
  toSec: number;
  stepSec: number;
}

export interface PricePoint {
  t: number;
  priceMicros: bigint;
}

export interface PointOrder {
  sortBy: 'timestamp' | 'price';
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/**
 * One point per bucket of the range, valued at the last trade in the bucket or carried forward
 * from the last trade before it; buckets before the market's first trade have no point. Reads
 * only the trades inside the range plus the one before it, through (market_id, matched_at).
 */
export async function pricePoints(db: Db, range: BucketRange, order: PointOrder): Promise<PricePoint[]> {
  const { marketId, tokenId, fromSec, toSec, stepSec } = range;
  const tokenPrice = sql`CASE WHEN token_id = ${tokenId} THEN price_micros ELSE 1000000 - price_micros END`;
  const direction = sql.raw(order.order);
  const orderBy = order.sortBy === 'price' ? sql`p ${direction}, t ${direction}` : sql`t ${direction}`;
  const result = await sql<{ t: string; p: string }>`
    WITH buckets AS (
      SELECT generate_series(${fromSec}::bigint, ${toSec}::bigint, ${stepSec}::bigint) AS t
    ), last_in_bucket AS (
      SELECT DISTINCT ON (b) b, price FROM (
        SELECT floor(extract(epoch from matched_at) / ${stepSec})::bigint * ${stepSec} AS b, ${tokenPrice} AS price, matched_at, seq
        FROM trades
        WHERE market_id = ${marketId} AND status <> 'FAILED'
          AND matched_at >= to_timestamp(${fromSec}) AND matched_at < to_timestamp(${toSec + stepSec})
      ) x ORDER BY b, matched_at DESC, seq DESC
    ), before_range AS (
      SELECT ${tokenPrice} AS price FROM trades
      WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at < to_timestamp(${fromSec})
      ORDER BY matched_at DESC, seq DESC LIMIT 1
    ), marked AS (
      SELECT buckets.t, l.price, count(l.price) OVER (ORDER BY buckets.t) AS grp
      FROM buckets LEFT JOIN last_in_bucket l ON l.b = buckets.t
    ), filled AS (
      SELECT t, CASE WHEN grp = 0 THEN (SELECT price FROM before_range) ELSE max(price) OVER (PARTITION BY grp) END AS p
      FROM marked
    )
    SELECT t, p FROM filled WHERE p IS NOT NULL ORDER BY ${orderBy} LIMIT ${order.limit} OFFSET ${order.offset}`.execute(db);
  return result.rows.map((r) => ({ t: Number(r.t), priceMicros: BigInt(r.p) }));
}
