import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

const provider: MigrationProvider = { getMigrations: async () => migrations as Record<string, Migration> };

/** Applies every pending migration; throws (and so stops the boot) when one fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // The migrator creates its tables and takes its lock in a transaction on every call; two reads
  // tell the usual boot, on a current schema, that there is nothing to do at a fraction of that.
  if (await schemaIsCurrent(db)) return [];
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether every migration this build knows has been applied (Kysely's own bookkeeping table). */
async function schemaIsCurrent(db: Db): Promise<boolean> {
  const table = await sql<{ present: boolean }>`select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (!table.rows[0]?.present) return false;
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = new Set(applied.rows.map((row) => row.name));
  return Object.keys(migrations).every((name) => names.has(name));
}
