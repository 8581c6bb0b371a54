import { sql, type Kysely } from 'kysely';

/**
 * A payment the operator signs for a move the ledger already made (an oracle payout, a reward
 * claim: src/chain/once-payments.ts), recorded before it is sent: its key (the ledger
 * transaction's hash), the signed transaction, its hash and its nonce. A start that finds one
 * learns from the chain whether it was mined, can still be, or never will be (its nonce went to
 * another transaction), instead of sending a second payment for the same move.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_payment_intents')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('chain_tx_hash', 'text', (c) => c.notNull())
    .addColumn('nonce', 'bigint', (c) => c.notNull())
    .addColumn('raw_tx', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chain_payment_intents').execute();
}
