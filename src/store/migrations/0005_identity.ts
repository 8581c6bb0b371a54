import { sql, type Kysely } from 'kysely';

/**
 * Sign-in nonces (shared by every node, so any node verifies a login whose nonce another issued)
 * and API keys (secret encrypted, passphrase hashed, revocation kept as a timestamp).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX auth_nonces_expires_at ON auth_nonces (expires_at)`.execute(db);

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('passphrase_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX api_keys_active_by_user ON api_keys (user_id, created_at) WHERE revoked_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('auth_nonces').execute();
}
