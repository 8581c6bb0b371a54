import { sql, type Kysely } from 'kysely';

/**
 * The payouts the operator's side sent on chain for moves the ledger made first (an oracle reward
 * paid from the reward treasury, src/oracle/rewards-on-chain.ts): one row per ledger transaction,
 * written once the chain's transfer is mined, so a start pays on chain only what has no row. The
 * partial index finds the oracle rewards among the ledger's transactions without reading them all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_payouts')
    .addColumn('ledger_tx_hash', 'text', (c) => c.primaryKey())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('chain_tx_hash', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX ledger_transactions_oracle_rewards ON ledger_transactions (seq) WHERE kind = 'ORACLE_REWARD'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ledger_transactions_oracle_rewards`.execute(db);
  await db.schema.dropTable('chain_payouts').execute();
}
