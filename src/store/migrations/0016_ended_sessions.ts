import { sql, type Kysely } from 'kysely';

/**
 * Sessions ended before their expiry (POST /auth/logout), by JWT id, so every node and a restarted
 * node refuse their tokens; a row is useless once its token has expired and is deleted then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ended_sessions')
    .addColumn('session_id', 'uuid', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX ended_sessions_expires_at ON ended_sessions (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ended_sessions').execute();
}
