import { sql, type Kysely } from 'kysely';

/**
 * The oracle (src/oracle) and redemptions.
 * - oracle_questions: one row per market once its question leaves UNPROPOSED (no row means
 *   UNPROPOSED). Bonds are bigint base units; a null account is the operator. The partial index
 *   finds proposals whose dispute window has ended.
 * - redemptions: one row per market redeemed by a user, with the ledger transaction that paid it
 *   (activity rows of type REDEEM read it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oracle_questions')
    .addColumn('market_id', 'uuid', (c) => c.primaryKey().references('markets.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('proposed_outcome', 'text')
    .addColumn('proposer_account', 'text')
    .addColumn('proposer_user_id', 'uuid')
    .addColumn('proposal_bond_base_units', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('proposed_at', 'timestamptz')
    .addColumn('dispute_ends_at', 'timestamptz')
    .addColumn('disputer_account', 'text')
    .addColumn('disputer_user_id', 'uuid')
    .addColumn('dispute_bond_base_units', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('disputed_at', 'timestamptz')
    .addColumn('final_outcome', 'text')
    .addColumn('settled_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX oracle_questions_due ON oracle_questions (dispute_ends_at) WHERE status = 'PROPOSED'`.execute(db);

  await db.schema
    .createTable('redemptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('market_id', 'uuid', (c) => c.notNull().references('markets.id'))
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('burned1_base_units', 'bigint', (c) => c.notNull())
    .addColumn('burned2_base_units', 'bigint', (c) => c.notNull())
    .addColumn('payout_base_units', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX redemptions_by_user ON redemptions (user_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX redemptions_by_market ON redemptions (market_id, created_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('redemptions').execute();
  await db.schema.dropTable('oracle_questions').execute();
}
