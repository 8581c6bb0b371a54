import { sql, type Kysely } from 'kysely';

/**
 * The payouts made on chain for moves the ledger made first (an oracle reward paid from the reward
 * treasury, a bond lost in a dispute: src/conditional-tokens/oracle-payouts-on-chain.ts): one row
 * per ledger transaction, written once the chain's transfer is mined, so a start makes on chain
 * only what has no row. `account` is the account credited. The partial index finds the oracle's
 * payouts among the ledger's transactions without reading them all.
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
  await sql`CREATE INDEX ledger_transactions_oracle_payouts ON ledger_transactions (seq) WHERE kind IN ('ORACLE_REWARD', 'BOND_FORFEIT')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ledger_transactions_oracle_payouts`.execute(db);
  await db.schema.dropTable('chain_payouts').execute();
}
