import { sql } from 'kysely';
import type { Db } from './database.ts';

/** One market's book midpoint in one minute, in outcome-1 terms. */
export interface PriceSample {
  marketId: string;
  /** The start of the minute, Unix seconds. */
  minuteSec: number;
  midMicros: bigint;
}

/** Rows per statement: a catch-up of a day for many markets stays within parameter and memory bounds. */
const CHUNK_ROWS = 5_000;

/** Stores samples; a minute already sampled keeps its first sample (ticks may overlap harmlessly). */
export async function insertPriceSamples(db: Db, samples: PriceSample[]): Promise<void> {
  for (let start = 0; start < samples.length; start += CHUNK_ROWS) {
    const chunk = samples.slice(start, start + CHUNK_ROWS);
    await sql`
      INSERT INTO price_samples (market_id, sampled_at, mid_micros)
      SELECT market_id, to_timestamp(minute_sec), mid_micros
      FROM unnest(${chunk.map((s) => s.marketId)}::uuid[], ${chunk.map((s) => s.minuteSec)}::bigint[], ${chunk.map((s) => s.midMicros.toString())}::bigint[])
        AS s(market_id, minute_sec, mid_micros)
      ON CONFLICT (market_id, sampled_at) DO NOTHING`.execute(db);
  }
}
