import { sql, type Kysely } from 'kysely';

/**
 * A payment the operator signed may be replaced while it waits in a pool (the same nonce at higher
 * fees, src/chain/operator.ts): every version is recorded before it is sent, since any one of them
 * may be the one mined. A key's versions are numbered from 0 in the order they were signed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE chain_payment_intents ADD COLUMN version integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE chain_payment_intents DROP CONSTRAINT chain_payment_intents_pkey`.execute(db);
  await sql`ALTER TABLE chain_payment_intents ADD PRIMARY KEY (key, version)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM chain_payment_intents WHERE version > 0`.execute(db);
  await sql`ALTER TABLE chain_payment_intents DROP CONSTRAINT chain_payment_intents_pkey`.execute(db);
  await sql`ALTER TABLE chain_payment_intents DROP COLUMN version`.execute(db);
  await sql`ALTER TABLE chain_payment_intents ADD PRIMARY KEY (key)`.execute(db);
}
