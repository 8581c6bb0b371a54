import { sql, type Kysely } from 'kysely';

/**
 * The trades not settled yet, by match time: `GET /trades/activity` shows a confirmed trade only
 * once every trade matched before it has settled (market-data-trades-repository.ts), and reads the
 * earliest unsettled match time off this index's first entry. It replaces an index of the same
 * rows on `status`, which the lookups of unsettled trades (recovery's genesis, the audit) use the
 * same way, as the rows are the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_unsettled`.execute(db);
  await sql`CREATE INDEX trades_unsettled ON trades (matched_at) WHERE status IN ('MATCHED', 'MINED')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_unsettled`.execute(db);
  await sql`CREATE INDEX trades_unsettled ON trades (status) WHERE status IN ('MATCHED', 'MINED')`.execute(db);
}
