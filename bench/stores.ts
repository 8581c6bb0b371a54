/**
 * The stores a benchmark runs on: PGlite on disk in a fresh directory, then PostgreSQL in a
 * scratch database when BENCH_DATABASE_URL (or DATABASE_URL) is set; each removed afterwards.
 * BENCH_STORES=PostgreSQL (or PGlite) runs only that one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '../test/helpers/database.ts';

/**
 * What a server on the embedded store must be started with: servers inherit the benchmark's
 * environment, and a DATABASE_URL there (the usual way to name PostgreSQL to a benchmark) would
 * otherwise put the "PGlite" server on PostgreSQL, and a REDIS_URL would put it behind Redis.
 */
export const EMBEDDED_STORE_ENV = { DATABASE_URL: '', REDIS_URL: '' };

/** Runs `run` once per store with its label and the server environment that selects it. */
export async function onEachStore<T>(run: (label: 'PGlite' | 'PostgreSQL', env: Record<string, string>) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  const wanted = (label: string) => !process.env.BENCH_STORES || process.env.BENCH_STORES.split(',').includes(label);
  if (wanted('PGlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'pmx-bench-'));
    try {
      results.push(await run('PGlite', { ...EMBEDDED_STORE_ENV, DATA_DIR: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl && wanted('PostgreSQL')) {
    const scratch = await createScratchDatabase(databaseUrl);
    try {
      results.push(await run('PostgreSQL', { DATABASE_URL: scratch.url }));
    } finally {
      await scratch.drop();
    }
  }
  return results;
}
