import { sql, type Kysely } from 'kysely';

/**
 * `markets.first_price_data_at` was never written (every market answered firstPriceDataAt null):
 * the field is now the first trade's time, read from the trades (catalogue-stats-repository.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('markets').dropColumn('first_price_data_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('markets').addColumn('first_price_data_at', sql`timestamptz`).execute();
}
