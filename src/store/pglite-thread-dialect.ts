import { readFile } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';
import { CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings } from 'kysely';
import { startWorkerModule } from '../worker-module.ts';

/**
 * PGlite on a thread of its own behind Kysely (README.md): the server's thread sends each
 * statement and its parameters, the store's thread runs them in order, so the WebAssembly of the
 * embedded PostgreSQL no longer takes turns of the event loop that answers HTTP. One connection,
 * as with PGlite in this thread: a transaction holds it until it ends, other statements wait.
 */
export class PgliteThreadDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteThreadDriver(this.thread);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

interface Pending {
  resolve(result: { rows: unknown[]; affectedRows?: number }): void;
  reject(error: Error): void;
}

/** The store's thread and the statements in flight to it. */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | undefined;
  /** Opening, open, or closing (by `close`, or after it failed to open): only an open store's death is fatal. */
  private state: 'opening' | 'open' | 'closing' = 'opening';
  /** Settles once PGlite is open on the thread, or failed to open, or the thread died first. */
  private readonly opened: Promise<void>;

  private constructor(options: { dataDir: string; template?: Uint8Array }, wasmModule: CompiledPglite) {
    const workerData = { dataDir: options.dataDir, wasmModule, ...(options.template ? { template: options.template } : {}) };
    this.worker = startWorkerModule(import.meta.url, 'pglite-thread', { workerData });
    let settleOpening: { resolve(): void; reject(error: Error): void } | undefined;
    this.opened = new Promise((resolve, reject) => {
      settleOpening = { resolve, reject };
    });
    this.worker.on('message', (message: { id?: number; ready?: boolean; rows?: unknown[]; affectedRows?: number; error?: Record<string, unknown> }) => {
      if (message.ready === true) settleOpening?.resolve();
      if (message.ready === false) settleOpening?.reject(asError(message.error ?? { message: 'PGlite did not open' }));
      if (message.id === undefined) return;
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (this.pending.size === 0) this.worker.unref();
      if (message.error) pending?.reject(asError(message.error));
      else pending?.resolve({ rows: message.rows ?? [], ...(message.affectedRows === undefined ? {} : { affectedRows: message.affectedRows }) });
    });
    const fail = (error: Error) => {
      if (this.failure) return;
      this.failure = error;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
      settleOpening?.reject(error);
      // A store that died on its own (WebAssembly aborted, out of memory) takes the process with it,
      // as it did in this thread: a restart recovers from the journal and the files, where a
      // process left running would answer every request with errors.
      if (this.state === 'open') process.nextTick(() => { throw error; });
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the embedded store's thread exited (code ${code})`)));
  }

  /** Starts the thread and resolves once PGlite is open there. */
  static async open(options: { dataDir: string; template?: Uint8Array }): Promise<PgliteThread> {
    const thread = new PgliteThread(options, await compiledPglite());
    try {
      await thread.opened;
    } catch (error) {
      thread.state = 'closing';
      await thread.worker.terminate();
      throw error;
    }
    thread.state = 'open';
    // Like PGlite in this thread, an idle store keeps no process alive (a CLI command that ends
    // without closing it); while a statement is in flight the thread is waited for.
    thread.worker.unref();
    return thread;
  }

  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }> {
    return this.send({ sql, params });
  }

  async close(): Promise<void> {
    if (this.failure) return;
    this.state = 'closing';
    await this.send({ close: true });
    await this.worker.terminate();
  }

  private send(body: Record<string, unknown>): Promise<{ rows: unknown[]; affectedRows?: number }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...body });
    });
  }
}

/** PGlite's compiled WebAssembly: a `WebAssembly.Module`, which this project's ES library types do not name. */
export type CompiledPglite = NonNullable<PGliteOptions['pgliteWasmModule']>;
/** Node's WebAssembly global, as far as compiling goes. */
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledPglite> } };
let pgliteWasm: Promise<CompiledPglite> | undefined;

/**
 * PGlite's WebAssembly, compiled once per process: a compiled module crosses to a thread as it
 * is, so a second store (the tests open hundreds) does not compile ten megabytes of it again. A
 * read or compile that failed is not kept: the next open tries again.
 */
function compiledPglite(): Promise<CompiledPglite> {
  if (!pgliteWasm) {
    const compiling = readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'))).then((bytes) => wasm.compile(bytes));
    compiling.catch(() => {
      if (pgliteWasm === compiling) pgliteWasm = undefined;
    });
    pgliteWasm = compiling;
  }
  return pgliteWasm;
}

/** The error PGlite threw, rebuilt with its fields (code, detail, constraint ...). */
function asError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

class PgliteThreadConnection implements DatabaseConnection {
  constructor(private readonly thread: PgliteThread) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.thread.query(compiled.sql, compiled.parameters);
    return { rows: rows as R[], ...(affectedRows ? { numAffectedRows: BigInt(affectedRows) } : {}) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on the embedded store');
  }
}

/** One connection: whoever holds it runs alone, as with PGlite in this thread. */
class PgliteThreadDriver implements Driver {
  private readonly connection: PgliteThreadConnection;
  private held = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly thread: PgliteThread) {
    this.connection = new PgliteThreadConnection(thread);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.thread.close();
  }
}
