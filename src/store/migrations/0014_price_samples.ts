import { sql, type Kysely } from 'kysely';

/**
 * - price_samples: the book midpoint of each active market once a minute (src/jobs/price-sampler.ts),
 *   in outcome-1 terms (token 2's is 1 − it), only while the book is two-sided. The primary key
 *   (market_id, sampled_at) serves every price-history read: the last sample of a bucket is one
 *   backward index probe, however many minutes the bucket holds.
 * - trades by wallet: `GET /trades?taker=`, `maker=` and `user=` filter on a proxy wallet and page
 *   by (second, id) descending. The second is computed from the UTC wall time because
 *   `extract(epoch from timestamptz)` is only STABLE and cannot be indexed; the value is the same.
 *   With these, a wallet's page is an ordered index scan that stops after `limit` rows instead of
 *   a scan of every trade and a sort.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_samples')
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('sampled_at', 'timestamptz', (c) => c.notNull())
    .addColumn('mid_micros', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('price_samples_pkey', ['market_id', 'sampled_at'])
    .execute();
  const second = sql.raw(`(floor(extract(epoch from (matched_at AT TIME ZONE 'UTC'))))`);
  await sql`CREATE INDEX trades_by_taker_second ON trades (taker_wallet, ${second} DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX trades_by_maker_second ON trades (maker_wallet, ${second} DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_by_maker_second`.execute(db);
  await sql`DROP INDEX trades_by_taker_second`.execute(db);
  await db.schema.dropTable('price_samples').execute();
}
