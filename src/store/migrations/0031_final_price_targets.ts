import { sql, type Kysely } from 'kysely';

/**
 * When a price-target market's target became final: the price job sets it, in the same statement
 * that checks the target is the one it read, just before it proposes the outcome from that target.
 * The operator's PATCH of a manual target changes only a target not final yet, so a PATCH and a
 * proposal at the same moment cannot leave a market proposed from one target and showing another
 * (src/prices/README.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE price_targets ADD COLUMN final_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE price_targets DROP COLUMN final_at`.execute(db);
}
