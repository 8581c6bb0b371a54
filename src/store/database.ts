import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import type { PoolClient } from 'pg';
import { lockDataDir } from '../data-dir-lock.ts';
import { INT8_OID, parseInt8 } from './int8.ts';
import { templateFor } from './pglite-template.ts';
import { namePreparedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface Store {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool as it is now (/metrics reads it when scraped); PGlite has none. */
  readonly pool?: () => PoolState;
  close(): Promise<void>;
}

export interface PoolState {
  /** Connections open, and of them idle. */
  readonly connections: number;
  readonly idle: number;
  /** Callers waiting for a connection. */
  readonly waiting: number;
  /** Statements that had no answer within the store's timeout, since it opened (`deadlineStatements`). */
  readonly timedOut: number;
}

export interface StoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL: see `openPostgres`. */
  idleInTransactionTimeoutMs?: number;
  /** PostgreSQL: see `openPostgres`. */
  timeoutMs?: number;
  pgliteTemplate?: string;
}

/**
 * Opens the store: PostgreSQL when a connection string is given, else PGlite under `dataDir`
 * (`memory://` keeps nothing). Both return int8 columns as bigint, so amounts never pass through
 * a float on their way out of SQL. Each store's driver is loaded only when that store is opened,
 * so a boot pays for one of them.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options.dataDir, options.pgliteTemplate);
}

/**
 * PGlite runs on a thread of its own (pglite-thread-dialect.ts), so its WebAssembly does not take
 * the turns of the event loop that answers HTTP. A new data directory starts from `template`
 * (pglite-template.ts) when the build made one, and so does every in-memory one.
 */
async function openPglite(dataDir: string, template?: string): Promise<Store> {
  const inMemory = dataDir === 'memory://';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // One process at a time: PGlite's files opened by two are lost at the next crash (data-dir-lock.ts).
  const lock = inMemory ? undefined : lockDataDir(dataDir);
  try {
    const initial = templateFor(dataDir, template);
    const { PgliteThread, PgliteThreadDialect } = await import('./pglite-thread-dialect.ts');
    const thread = await PgliteThread.open({ dataDir, ...(initial ? { template: initial } : {}) });
    const db = new Kysely<Database>({ dialect: new PgliteThreadDialect(thread) });
    return { db, kind: 'pglite', close: () => db.destroy().finally(() => lock?.release()) };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * `idleInTransactionTimeoutMs`: PostgreSQL ends a session that sits in an open transaction longer
 * than this. A node frozen in the middle of an engine write (SIGSTOP, a stalled VM) would otherwise
 * hold the engine lease's row lock for ever and no other node could take the engine over.
 *
 * `timeoutMs`: the longest this process waits for PostgreSQL, the other way round: for a
 * connection (a new one, or a turn at the pool's ten) and for each statement's answer. A database
 * whose network drops every packet says nothing, so without it a request, the engine's append and
 * the lease's renewal would wait for as long as the kernel keeps retransmitting (many minutes),
 * holding the pool's connections the while. A statement past it has its connection closed
 * (`deadlineStatements`), so it fails as a lost connection does, answered 503 (store-unavailable.ts).
 */
async function openPostgres(connectionString: string, { idleInTransactionTimeoutMs, timeoutMs }: StoreOptions): Promise<Store> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    types,
    ...(idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: idleInTransactionTimeoutMs } : {}),
    ...(timeoutMs ? { connectionTimeoutMillis: timeoutMs } : {}),
  });
  // A failed idle connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor may a connection that fails while checked out between two queries (the pool listens only
  // to idle ones): PostgreSQL ends the session of a node frozen inside a transaction
  // (idle_in_transaction_session_timeout), and that node, thawing, must step down, not crash. The
  // transaction's next query fails with the error, and the pool drops the connection on release.
  let timedOut = 0;
  pool.on('connect', (client) => {
    client.on('error', () => {});
    namePreparedStatements(client);
    if (timeoutMs) deadlineStatements(client, timeoutMs, () => (timedOut += 1));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const state = (): PoolState => ({ connections: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, timedOut });
  return { db, kind: 'postgres', pool: state, close: () => db.destroy() };
}

/**
 * Closes `client`'s connection when a statement it sent has no answer within `timeoutMs`: the
 * statement fails with "Connection terminated", the pool drops the connection when it is
 * released, and the next statement takes a fresh one. node-postgres's own `query_timeout` fails
 * the statement but keeps the connection, whose next statement then waits behind the lost one.
 * Closing it ends the session on PostgreSQL's side too once it notices: an open transaction is
 * rolled back, and a statement that was only slow, not lost, may still commit, exactly as when a
 * connection breaks mid-commit (the engine rebuilds from the store after any failed write).
 */
function deadlineStatements(client: PoolClient, timeoutMs: number, onTimeout: () => void): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const answer = query(...args);
    if (!(answer instanceof Promise)) return answer;
    const deadline = setTimeout(() => {
      onTimeout();
      void client.end().catch(() => {});
    }, timeoutMs);
    return answer.finally(() => clearTimeout(deadline));
  }) as typeof client.query;
}
