import type { Config } from '../config.ts';
import { databaseUnreachable } from '../database-unreachable.ts';
import type { Store } from '../store/database.ts';

/**
 * The store of `pmx migrate` and `pmx audit`, its schema brought up to date, and the migrations
 * that applied. A DATABASE_URL that cannot be reached is the one line `serve` says too, where pg's
 * stack trace came out. The store's modules are loaded here: client commands do not need them.
 */
export async function openMigratedStore(config: Config): Promise<{ store: Store; applied: string[] }> {
  const { openStore } = await import('../store/database.ts');
  const { migrateToLatest } = await import('../store/migrate.ts');
  const store = await openStore(config);
  try {
    return { store, applied: await migrateToLatest(store.db) };
  } catch (error) {
    await store.close();
    throw databaseUnreachable(config.databaseUrl, error) ?? error;
  }
}
