import { sql, type Kysely } from 'kysely';

/**
 * The open orders of a market in time priority: a restart reads every open order in
 * (market, book_seq) order off this index instead of sorting them (with a million open orders the
 * sort spilled to disk). Lookups by market alone use its first column as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX orders_open_by_market`.execute(db);
  await sql`CREATE INDEX orders_open_by_market ON orders (market_id, book_seq) WHERE status IN ('PENDING', 'EXECUTING')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX orders_open_by_market`.execute(db);
  await sql`CREATE INDEX orders_open_by_market ON orders (market_id) WHERE status IN ('PENDING', 'EXECUTING')`.execute(db);
}
