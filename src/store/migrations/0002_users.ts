import { sql, type Kysely } from 'kysely';

/** Users: one per sign-in address (EOA), with its derived proxy wallet and public profile fields. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('proxy_wallet', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('anonymous', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Display names are unique case-insensitively (EXTENSIONS.md section 2).
  await sql`CREATE UNIQUE INDEX users_display_name_lower ON users (lower(display_name)) WHERE display_name IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
