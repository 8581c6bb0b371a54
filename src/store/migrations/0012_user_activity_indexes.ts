import { sql, type Kysely } from 'kysely';

/**
 * A user's activity and traded-count read trades by the wallet of one party
 * (src/store/market-data-activity-repository.ts): without these, every user read scans every trade.
 * Newest first, like the activity pages that read them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX trades_by_taker_wallet_time ON trades (taker_wallet, matched_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX trades_by_maker_wallet_time ON trades (maker_wallet, matched_at DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_by_maker_wallet_time`.execute(db);
  await sql`DROP INDEX trades_by_taker_wallet_time`.execute(db);
}
