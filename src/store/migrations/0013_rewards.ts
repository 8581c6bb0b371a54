import { sql, type Kysely } from 'kysely';

/**
 * Maker liquidity rewards (src/rewards).
 * - reward_configs: one per market and UTC date; `sampled_through_minute` is the last minute the
 *   sampler has paid (minute k starts at k × 60 s), `closed_at` set once the day became payout rows.
 * - reward_accruals: what each maker earned so far in a market and day, in base units.
 * - reward_payouts: the closed day's rows (SPEC.md UserPayoutHistoryItem), one per user, market, day.
 * - reward_claims: one dispatch of a user's claimable rows; the partial unique index allows one
 *   unfinished claim per user, which is what makes a claim storm pay once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reward_configs')
    .addColumn('market_id', 'uuid', (c) => c.notNull().references('markets.id'))
    .addColumn('reward_date', 'text', (c) => c.notNull())
    .addColumn('reward_base_units', 'bigint', (c) => c.notNull())
    .addColumn('start_at', 'timestamptz')
    .addColumn('end_at', 'timestamptz')
    .addColumn('max_distance_micros', 'integer', (c) => c.notNull())
    .addColumn('extreme_max_distance_micros', 'integer', (c) => c.notNull())
    .addColumn('min_order_size_base_units', 'bigint', (c) => c.notNull())
    .addColumn('boost_windows', 'jsonb', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('sampled_through_minute', 'bigint')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('reward_configs_pk', ['market_id', 'reward_date'])
    .execute();
  await sql`CREATE INDEX reward_configs_open ON reward_configs (reward_date) WHERE closed_at IS NULL`.execute(db);

  await db.schema
    .createTable('reward_accruals')
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('reward_date', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('amount_base_units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reward_accruals_pk', ['market_id', 'reward_date', 'user_id'])
    .execute();
  await sql`CREATE INDEX reward_accruals_by_user ON reward_accruals (user_id, reward_date)`.execute(db);

  await db.schema
    .createTable('reward_payouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('reward_date', 'text', (c) => c.notNull())
    .addColumn('earned_base_units', 'bigint', (c) => c.notNull())
    .addColumn('carried_in_base_units', 'bigint', (c) => c.notNull())
    .addColumn('amount_base_units', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'uuid')
    .addColumn('tx_hash', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('reward_payouts_one_per_day', ['user_id', 'market_id', 'reward_date'])
    .execute();
  await sql`CREATE INDEX reward_payouts_by_user ON reward_payouts (user_id, reward_date DESC, market_id)`.execute(db);
  await sql`CREATE INDEX reward_payouts_by_date ON reward_payouts (reward_date)`.execute(db);

  await db.schema
    .createTable('reward_claims')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount_base_units', 'bigint', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX reward_claims_one_unfinished ON reward_claims (user_id) WHERE state IN ('dispatched', 'in-flight')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reward_claims').execute();
  await db.schema.dropTable('reward_payouts').execute();
  await db.schema.dropTable('reward_accruals').execute();
  await db.schema.dropTable('reward_configs').execute();
}
