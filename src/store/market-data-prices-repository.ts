import { sql } from 'kysely';
import { PRICE_ONE } from '../core/money.ts';
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
 * Buckets of at most this many minutes are read by scanning the range's trades once; wider ones
 * by one backward index probe per bucket (its last trade, through `trades_by_market_time`), so a
 * year of daily points never reads a year of trades. Measured on a year of trades
 * (bench/price-history.ts): the scan wins while a bucket holds a few trades, the probes beyond.
 */
const SCAN_MAX_BUCKET_MINUTES = 5;

/** Encodes (bucket, price) so one running max carries the last traded price forward (price < 2^21). */
const CARRY_SCALE = 2_097_152;

/**
 * One point per bucket of the range (EXTENSIONS.md section 11): the last trade in the bucket, else
 * the previous bucket's value carried forward, starting from the last trade before the range;
 * buckets before the market's first trade have no point. Reads only the range's trades (or one
 * per bucket) plus the one before it, through (market_id, matched_at).
 */
export async function pricePoints(db: Db, range: BucketRange, order: PointOrder): Promise<PricePoint[]> {
  const { marketId, tokenId, fromSec, toSec, stepSec } = range;
  const tradePrice = sql`CASE WHEN token_id = ${tokenId} THEN price_micros ELSE ${sql.lit(PRICE_ONE)} - price_micros END`;
  const step = sql`make_interval(secs => ${stepSec})`;
  const lastInBucket = stepSec <= SCAN_MAX_BUCKET_MINUTES * 60
    ? sql`
      SELECT b.at, tr.price FROM buckets b
      LEFT JOIN (
        SELECT DISTINCT ON (1) date_bin(${step}, matched_at, to_timestamp(0)) AS at, ${tradePrice} AS price FROM trades
        WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at >= to_timestamp(${fromSec}) AND matched_at < to_timestamp(${toSec + stepSec})
        ORDER BY 1, matched_at DESC, seq DESC
      ) tr ON tr.at = b.at`
    : sql`
      SELECT b.at, tr.price FROM buckets b
      LEFT JOIN LATERAL (
        SELECT ${tradePrice} AS price FROM trades
        WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at >= b.at AND matched_at < b.at + ${step}
        ORDER BY matched_at DESC, seq DESC LIMIT 1
      ) tr ON true`;
  const direction = sql.raw(order.order);
  const orderBy = order.sortBy === 'price' ? sql`p ${direction}, t ${direction}` : sql`t ${direction}`;
  const result = await sql<{ t: string; p: string }>`
    WITH buckets AS (
      SELECT generate_series(to_timestamp(${fromSec}), to_timestamp(${toSec}), ${step}) AS at
    ), last_in_bucket AS MATERIALIZED (${lastInBucket}
    ), carried_in AS (
      SELECT ${tradePrice} AS price FROM trades
      WHERE market_id = ${marketId} AND status <> 'FAILED' AND matched_at < to_timestamp(${fromSec})
      ORDER BY matched_at DESC, seq DESC LIMIT 1
    ), filled AS (
      -- The running max of (bucket, price) is the last traded price so far: one pass, no regrouping.
      SELECT extract(epoch from at)::bigint AS t,
        coalesce(max(extract(epoch from at)::bigint * ${CARRY_SCALE} + price) OVER (ORDER BY at) % ${CARRY_SCALE}, (SELECT price FROM carried_in)) AS p
      FROM last_in_bucket
    )
    SELECT t, p FROM filled WHERE p IS NOT NULL ORDER BY ${orderBy} LIMIT ${order.limit} OFFSET ${order.offset}`.execute(db);
  return result.rows.map((r) => ({ t: Number(r.t), priceMicros: BigInt(r.p) }));
}
