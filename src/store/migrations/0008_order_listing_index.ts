import { sql, type Kysely } from 'kysely';

/**
 * Order listings sort by creation time and break ties by the engine's acceptance order
 * (`book_seq`), which is also the keyset of their cursors: index exactly that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_by_user_created`.execute(db);
  await sql`CREATE INDEX orders_by_user_created_seq ON orders (user_id, created_at DESC, book_seq DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_by_user_created_seq`.execute(db);
  await sql`CREATE INDEX orders_by_user_created ON orders (user_id, created_at DESC, id DESC)`.execute(db);
}
