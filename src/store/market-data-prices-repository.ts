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
 * Buckets of at most this many minutes are read by scanning the range's samples and trades once;
 * wider ones by two backward index probes per bucket (its last trade, its last sample), so a
 * year of daily points never reads a year of minute samples. Measured on a year of minute data
 * (bench/price-history.ts): the scan wins while a bucket holds a few rows, the probes beyond.
 */
const SCAN_MAX_BUCKET_MINUTES = 5;

/** Encodes (bucket, price) so one running max carries the last observed price forward (price < 2^21). */
const CARRY_SCALE = 2_097_152;

/**
 * One point per bucket of the range: the last trade in the bucket; else the last midpoint sample
 * in it (price_samples); else the previous bucket's value carried forward. The value carried
 * into the range follows the same rule, so pages agree with each other.
 */
export async function pricePoints(db: Db, range: BucketRange, order: PointOrder): Promise<PricePoint[]> {
  const { marketId, tokenId, mirrored, fromSec, toSec, stepSec } = range;
  const tradePrice = sql`CASE WHEN token_id = ${tokenId} THEN price_micros ELSE 1000000 - price_micros END`;
  const samplePrice = mirrored ? sql`1000000 - mid_micros` : sql`mid_micros`;
  const step = sql`make_interval(secs => ${stepSec})`;
  const bucketOf = (at: ReturnType<typeof sql>) => sql`date_bin(${step}, ${at}, to_timestamp(0))`;
  const observed = stepSec <= SCAN_MAX_BUCKET_MINUTES * 60
    ? sql`
      SELECT b.at, coalesce(tr.price, sm.price) AS price FROM buckets b
      LEFT JOIN (
        SELECT DISTINCT ON (1) ${bucketOf(sql`matched_at`)} AS at, ${tradePrice} AS price FROM trades
        WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at >= to_timestamp(${fromSec}) AND matched_at < to_timestamp(${toSec + stepSec})
        ORDER BY 1, matched_at DESC, seq DESC
      ) tr ON tr.at = b.at
      LEFT JOIN (
        SELECT DISTINCT ON (1) ${bucketOf(sql`sampled_at`)} AS at, ${samplePrice} AS price FROM price_samples
        WHERE market_id = ${marketId} AND sampled_at >= to_timestamp(${fromSec}) AND sampled_at < to_timestamp(${toSec + stepSec})
        ORDER BY 1, sampled_at DESC
      ) sm ON sm.at = b.at`
    : sql`
      SELECT b.at, coalesce(tr.price, sm.price) AS price FROM buckets b
      LEFT JOIN LATERAL (
        SELECT ${tradePrice} AS price FROM trades
        WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at >= b.at AND matched_at < b.at + ${step}
        ORDER BY matched_at DESC, seq DESC LIMIT 1
      ) tr ON true
      LEFT JOIN LATERAL (
        SELECT ${samplePrice} AS price FROM price_samples
        WHERE market_id = ${marketId} AND sampled_at >= b.at AND sampled_at < b.at + ${step}
        ORDER BY sampled_at DESC LIMIT 1
      ) sm ON true`;
  const direction = sql.raw(order.order);
  const orderBy = order.sortBy === 'price' ? sql`p ${direction}, t ${direction}` : sql`t ${direction}`;
  const result = await sql<{ t: string; p: string }>`
    WITH buckets AS (
      SELECT generate_series(to_timestamp(${fromSec}), to_timestamp(${toSec}), ${step}) AS at
    ), observed AS MATERIALIZED (${observed}
    ), trade_before AS (
      SELECT ${tradePrice} AS price, ${bucketOf(sql`matched_at`)} AS at FROM trades
      WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at < to_timestamp(${fromSec})
      ORDER BY matched_at DESC, seq DESC LIMIT 1
    ), sample_before AS (
      SELECT ${samplePrice} AS price, ${bucketOf(sql`sampled_at`)} AS at FROM price_samples
      WHERE market_id = ${marketId} AND sampled_at < to_timestamp(${fromSec})
      ORDER BY sampled_at DESC LIMIT 1
    ), carried_in AS (
      -- The previous bucket's value: its last trade, unless a later bucket holds the last sample.
      SELECT CASE WHEN (SELECT at FROM sample_before) > (SELECT at FROM trade_before) OR NOT EXISTS (SELECT 1 FROM trade_before)
        THEN (SELECT price FROM sample_before) ELSE (SELECT price FROM trade_before) END AS price
    ), filled AS (
      -- The running max of (bucket, price) is the last observed price so far: one pass, no regrouping.
      SELECT extract(epoch from at)::bigint AS t,
        coalesce(max(extract(epoch from at)::bigint * ${CARRY_SCALE} + price) OVER (ORDER BY at) % ${CARRY_SCALE}, (SELECT price FROM carried_in)) AS p
      FROM observed
    )
    SELECT t, p FROM filled WHERE p IS NOT NULL ORDER BY ${orderBy} LIMIT ${order.limit} OFFSET ${order.offset}`.execute(db);
  return result.rows.map((r) => ({ t: Number(r.t), priceMicros: BigInt(r.p) }));
}
