import { sql, type Kysely } from 'kysely';

/**
 * Markets' volumes kept as their trades are written, so that a read of volume (every event of a
 * `GET /events` page, its sort by volume, `GET /markets/{id}/volume`) no longer sums every trade of
 * the markets (src/catalogue/README.md). Volume is the taker notional of the trades not FAILED
 * (EXTENSIONS.md section 11): `market_volume_totals` holds each market's all-time sum and
 * `market_volume_hours` its sum by UTC hour of `matched_at`, from which a 24-hour window is read
 * (its first, partial hour from the trades themselves).
 *
 * Statement triggers on `trades` keep them: every writer of trades (the engine's projection, in
 * one statement per batch; the tests' fixtures) moves them by the difference its statement made,
 * a new trade adding its notional unless FAILED, a status change into or out of FAILED taking it
 * away or back (and a deleted trade, which nothing but a repair deletes, its own). `pmx audit` checks them against the trades (`volumes-match-trades`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE market_volume_totals (market_id uuid PRIMARY KEY, volume_base_units numeric(78, 0) NOT NULL)`.execute(db);
  await sql`CREATE TABLE market_volume_hours (
    market_id uuid NOT NULL, hour timestamptz NOT NULL, volume_base_units numeric(78, 0) NOT NULL,
    PRIMARY KEY (market_id, hour))`.execute(db);
  const counted = (rows: string, sign: string) =>
    `SELECT market_id, date_bin('1 hour', matched_at, to_timestamp(0)) AS hour, ${sign}notional_base_units AS volume FROM ${rows} WHERE status <> 'FAILED'`;
  await volumeTrigger(db, 'inserted', 'INSERT', 'NEW TABLE AS new_rows', counted('new_rows', ''));
  await volumeTrigger(db, 'updated', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', `${counted('new_rows', '')} UNION ALL ${counted('old_rows', '-')}`);
  await volumeTrigger(db, 'deleted', 'DELETE', 'OLD TABLE AS old_rows', counted('old_rows', '-'));
  await sql`INSERT INTO market_volume_hours (market_id, hour, volume_base_units)
    SELECT market_id, date_bin('1 hour', matched_at, to_timestamp(0)), sum(notional_base_units) FROM trades WHERE status <> 'FAILED' GROUP BY 1, 2`.execute(db);
  await sql`INSERT INTO market_volume_totals (market_id, volume_base_units)
    SELECT market_id, sum(volume_base_units) FROM market_volume_hours GROUP BY market_id`.execute(db);
}

/** A statement trigger on trades that adds what `moves` (rows of market, hour, volume) sums to. */
async function volumeTrigger(db: Kysely<unknown>, name: string, event: string, transitionTables: string, moves: string): Promise<void> {
  await sql.raw(`CREATE FUNCTION pmx_trade_volumes_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH moves AS (${moves}),
      hours AS (
        INSERT INTO market_volume_hours (market_id, hour, volume_base_units)
        SELECT market_id, hour, sum(volume) FROM moves GROUP BY market_id, hour HAVING sum(volume) <> 0
        ON CONFLICT (market_id, hour) DO UPDATE SET volume_base_units = market_volume_hours.volume_base_units + EXCLUDED.volume_base_units)
      INSERT INTO market_volume_totals (market_id, volume_base_units)
      SELECT market_id, sum(volume) FROM moves GROUP BY market_id HAVING sum(volume) <> 0
      ON CONFLICT (market_id) DO UPDATE SET volume_base_units = market_volume_totals.volume_base_units + EXCLUDED.volume_base_units;
      RETURN NULL;
    END $$`).execute(db);
  await sql.raw(`CREATE TRIGGER trades_volumes_${name} AFTER ${event} ON trades REFERENCING ${transitionTables}
    FOR EACH STATEMENT EXECUTE FUNCTION pmx_trade_volumes_${name}()`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['deleted', 'updated', 'inserted']) {
    await sql.raw(`DROP TRIGGER trades_volumes_${name} ON trades`).execute(db);
    await sql.raw(`DROP FUNCTION pmx_trade_volumes_${name}()`).execute(db);
  }
  await sql`DROP TABLE market_volume_hours`.execute(db);
  await sql`DROP TABLE market_volume_totals`.execute(db);
}
