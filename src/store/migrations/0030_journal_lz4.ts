import { sql, type Kysely } from 'kysely';

/**
 * The journal's records and the snapshots' parts are compressed with lz4 where the server has it
 * (PostgreSQL built with lz4, as Debian's and the official images are; not PGlite, which keeps
 * pglz). A record of 15 orders is about 10 KB of text, compressed and stored out of line at every
 * append: with pglz that took 500-540 µs of PostgreSQL's CPU an append on this project's machine,
 * with lz4 270-280 µs, and a snapshot's 8 MB parts a third of the CPU (`npm run bench --
 * journal-compression`, docs/engine-measurements.md). Rows written before keep their pglz and
 * read as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(await hasLz4(db))) return;
  await sql`ALTER TABLE engine_journal ALTER COLUMN record SET COMPRESSION lz4`.execute(db);
  await sql`ALTER TABLE engine_snapshot_parts ALTER COLUMN data SET COMPRESSION lz4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE engine_journal ALTER COLUMN record SET COMPRESSION DEFAULT`.execute(db);
  await sql`ALTER TABLE engine_snapshot_parts ALTER COLUMN data SET COMPRESSION DEFAULT`.execute(db);
}

async function hasLz4(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ lz4: boolean }>`SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`.execute(db);
  return rows[0]?.lz4 === true;
}
