import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';

/**
 * A fresh database on the PostgreSQL of `baseUrl`, dropped again by `drop()` (connections forced
 * closed), for tests that run against real PostgreSQL when DATABASE_URL is set.
 */
export async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pmx_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A migrated, empty store: PGlite in memory, or a scratch database on the PostgreSQL of
 * DATABASE_URL when it is set (`url`). `close()` also drops the scratch database.
 */
export async function openTestStore(): Promise<Store & { url?: string | undefined }> {
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const store = await openStore({ databaseUrl: scratch?.url, dataDir: 'memory://' });
  await migrateToLatest(store.db);
  return {
    ...store,
    url: scratch?.url,
    async close() {
      await store.close();
      await scratch?.drop();
    },
  };
}

/** The PostgreSQL of tests that need one whichever store the suite runs on: the suite's, or the machine's. */
export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Whether a PostgreSQL answers at `url` (tests that need one skip without it). */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The environment of a store that outlives its server, for tests that restart or kill one: a
 * scratch database on the PostgreSQL of DATABASE_URL when it is set, else a PGlite directory on
 * disk. `cleanup()` drops or deletes it.
 */
export async function durableStore(prefix: string): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const database = await createScratchDatabase(process.env.DATABASE_URL);
    return { env: { DATABASE_URL: database.url }, cleanup: () => database.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A durable store for tests that kill a server and restart it on the same host and port. On
 * PostgreSQL the restarted node is another node (a random id per process, issue 38): it waits for
 * the killed node's lease to expire, so the failover timeout is short (the lease lives 0.6 of it).
 */
export async function restartedInPlaceStore(prefix: string): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const store = await durableStore(prefix);
  store.env.FAILOVER_TIMEOUT_MS = '3000';
  return store;
}

/**
 * One test file's durable store, opened by `open` (`durableStore` or `restartedInPlaceStore`)
 * before the file's tests and dropped after them. Read `env` inside the tests: it is set once the
 * `before` hook has run.
 */
export function useDurableStore(prefix: string, open = durableStore): { env: Record<string, string> } {
  const durable = { env: {} as Record<string, string> };
  let cleanup = async () => {};
  before(async () => {
    ({ env: durable.env, cleanup } = await open(prefix));
  });
  after(async () => cleanup());
  return durable;
}
