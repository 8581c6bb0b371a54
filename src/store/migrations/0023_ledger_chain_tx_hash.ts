import { sql, type Kysely } from 'kysely';

/**
 * The chain's transaction of a ledger transaction that a wallet made on chain first (a split, a
 * merge or a redeem with CHAIN=embedded or rpc): what the activity shows as the row's hash, since
 * that is the hash a wallet and a block explorer know. Null for everything the ledger alone moved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_transactions ADD COLUMN chain_tx_hash text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_transactions DROP COLUMN chain_tx_hash`.execute(db);
}
