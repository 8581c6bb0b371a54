import { sql, type Kysely } from 'kysely';

/**
 * Trades by wallet: `GET /trades?taker=`, `maker=` and `user=` filter on a proxy wallet and page
 * by (second, id) descending. The second is computed from the UTC wall time because
 * `extract(epoch from timestamptz)` is only STABLE and cannot be indexed; the value is the same.
 * With these, a wallet's page is an ordered index scan that stops after `limit` rows instead of a
 * scan of every trade and a sort. (Price history needs no new index: it reads trades through
 * `trades_by_market_time` of migration 0004.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const second = sql.raw(`(floor(extract(epoch from (matched_at AT TIME ZONE 'UTC'))))`);
  await sql`CREATE INDEX trades_by_taker_second ON trades (taker_wallet, ${second} DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX trades_by_maker_second ON trades (maker_wallet, ${second} DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_by_maker_second`.execute(db);
  await sql`DROP INDEX trades_by_taker_second`.execute(db);
}
