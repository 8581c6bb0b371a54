import { sql, type Kysely } from 'kysely';

/**
 * The engine lease (EXTENSIONS.md section 12): one row naming the node that runs the matching
 * engine, the fencing token of its term and the last time it proved it was alive. A node takes the
 * engine over by bumping the token of an expired lease; the engine checks its token in the same
 * transaction as every write, so a node whose lease passed to another writes nothing more.
 * Times are the database's own clock, so nodes with skewed clocks agree on expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('engine_leadership')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('token', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text')
    .addColumn('url', 'text')
    .addColumn('renewed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO engine_leadership (id, token, holder, url, renewed_at) VALUES (1, 0, NULL, NULL, '-infinity')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('engine_leadership').execute();
}
