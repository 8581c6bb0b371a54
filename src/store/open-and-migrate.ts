import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { startsFromTemplate } from './pglite-template.ts';

/**
 * Opens the store and brings its schema up to date, saying what it is doing and how long each
 * step took: on a slow disk or a busy machine the first seconds of a boot are otherwise silent.
 */
export async function openAndMigrate(options: Parameters<typeof openStore>[0], progress: (line: string) => void): Promise<Store> {
  progress(`opening ${describeStore(options)}`);
  let startedMs = performance.now();
  const store = await openStore(options);
  progress(`store open in ${elapsed(startedMs)}`);
  try {
    startedMs = performance.now();
    const applied = await migrateToLatest(store.db);
    progress(applied.length > 0 ? `applied ${applied.length} migration(s) in ${elapsed(startedMs)}: ${applied.join(', ')}` : `schema up to date (checked in ${elapsed(startedMs)})`);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

function describeStore(options: { databaseUrl?: string | undefined; dataDir: string; pgliteTemplate?: string }): string {
  if (options.databaseUrl) return 'the PostgreSQL database of DATABASE_URL';
  const fromTemplate = startsFromTemplate(options.dataDir, options.pgliteTemplate);
  if (options.dataDir === 'memory://') return `an in-memory PGlite database${fromTemplate ? " from the build's template" : ''}`;
  // PGlite writes PG_VERSION when it initialises a data directory; creating one takes longest.
  if (existsSync(join(options.dataDir, 'PG_VERSION'))) return `the embedded PGlite database in ${options.dataDir}`;
  const how = fromTemplate ? "from the build's template" : 'the first start takes longer';
  return `the embedded PGlite database in ${options.dataDir} (creating it: ${how})`;
}

export const elapsed = (startedMs: number): string => `${Math.round(performance.now() - startedMs)} ms`;
