import { sql, type Kysely } from 'kysely';

/**
 * A user's activity and traded-count read trades by the wallet of one party
 * (src/store/market-data-activity-repository.ts): without these, every user read scans every trade.
 * Newest first, like the activity pages that read them; `market_id` and `status` ride along so
 * traded-count is an index-only scan (a status change is never a HOT update anyway: the
 * `trades_unsettled` index holds status).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX trades_by_taker_wallet_time ON trades (taker_wallet, matched_at DESC, id DESC) INCLUDE (market_id, status)`.execute(db);
  await sql`CREATE INDEX trades_by_maker_wallet_time ON trades (maker_wallet, matched_at DESC, id DESC) INCLUDE (market_id, status)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_by_maker_wallet_time`.execute(db);
  await sql`DROP INDEX trades_by_taker_wallet_time`.execute(db);
}
