import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * Price-history points from the trades table and the per-minute midpoint samples. A token's price
 * at a trade is the trade price when the taker traded that token, else its complement (one book
 * per market, EXTENSIONS.md section 11); a sample is stored in outcome-1 terms.
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
  /** Whether the token is the market's token 2, whose sampled midpoint is 1 − the stored (outcome-1) one. */
  mirrored: boolean;
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
 * One point per bucket of the range: the last trade in the bucket; else the last midpoint sample
 * in it (price_samples); else the previous bucket's value carried forward. The value carried
 * into the range follows the same rule, so pages agree with each other. Each bucket costs two
 * backward index probes, (market_id, matched_at) and (market_id, sampled_at), whatever its
 * width: a year of minute samples is never scanned to draw a year of daily points.
 */
export async function pricePoints(db: Db, range: BucketRange, order: PointOrder): Promise<PricePoint[]> {
  const { marketId, tokenId, mirrored, fromSec, toSec, stepSec } = range;
  const tradePrice = sql`CASE WHEN token_id = ${tokenId} THEN price_micros ELSE 1000000 - price_micros END`;
  const samplePrice = mirrored ? sql`1000000 - mid_micros` : sql`mid_micros`;
  const bucketOf = (at: string) => sql`floor(extract(epoch from (SELECT at FROM ${sql.raw(at)})) / ${stepSec})`;
  const direction = sql.raw(order.order);
  const orderBy = order.sortBy === 'price' ? sql`p ${direction}, t ${direction}` : sql`t ${direction}`;
  const result = await sql<{ t: string; p: string }>`
    WITH buckets AS (
      SELECT generate_series(${fromSec}::bigint, ${toSec}::bigint, ${stepSec}::bigint) AS t
    ), observed AS (
      SELECT b.t, coalesce(
        (SELECT ${tradePrice} FROM trades
          WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at >= to_timestamp(b.t) AND matched_at < to_timestamp(b.t + ${stepSec})
          ORDER BY matched_at DESC, seq DESC LIMIT 1),
        (SELECT ${samplePrice} FROM price_samples
          WHERE market_id = ${marketId} AND sampled_at >= to_timestamp(b.t) AND sampled_at < to_timestamp(b.t + ${stepSec})
          ORDER BY sampled_at DESC LIMIT 1)) AS price
      FROM buckets b
    ), trade_before AS (
      SELECT ${tradePrice} AS price, matched_at AS at FROM trades
      WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at < to_timestamp(${fromSec})
      ORDER BY matched_at DESC, seq DESC LIMIT 1
    ), sample_before AS (
      SELECT ${samplePrice} AS price, sampled_at AS at FROM price_samples
      WHERE market_id = ${marketId} AND sampled_at < to_timestamp(${fromSec})
      ORDER BY sampled_at DESC LIMIT 1
    ), carried_in AS (
      -- The previous bucket's value: its last trade, unless a later bucket holds the last sample.
      SELECT CASE WHEN ${bucketOf('sample_before')} > ${bucketOf('trade_before')} OR NOT EXISTS (SELECT 1 FROM trade_before)
        THEN (SELECT price FROM sample_before) ELSE (SELECT price FROM trade_before) END AS price
    ), marked AS (
      SELECT t, price, count(price) OVER (ORDER BY t) AS grp FROM observed
    ), filled AS (
      SELECT t, CASE WHEN grp = 0 THEN (SELECT price FROM carried_in) ELSE max(price) OVER (PARTITION BY grp) END AS p
      FROM marked
    )
    SELECT t, p FROM filled WHERE p IS NOT NULL ORDER BY ${orderBy} LIMIT ${order.limit} OFFSET ${order.offset}`.execute(db);
  return result.rows.map((r) => ({ t: Number(r.t), priceMicros: BigInt(r.p) }));
}
