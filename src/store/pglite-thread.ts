/**
 * The embedded store's own thread (pglite-thread-dialect.ts): opens PGlite in the data directory
 * it is given and runs the statements the server's thread sends, one at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { INT8_OID, parseInt8 } from './int8.ts';
import type { CompiledPglite } from './pglite-thread-dialect.ts';

interface Options {
  dataDir: string;
  /** PGlite's WebAssembly, compiled by the server's thread (pglite-thread-dialect.ts). */
  wasmModule: CompiledPglite;
  /** The template's bytes when the database starts from one (pglite-template.ts). */
  template?: Uint8Array;
}

type Request = { id: number; sql: string; params: unknown[] } | { id: number; close: true };

const { dataDir, wasmModule, template } = workerData as Options;
const port = parentPort!;
/**
 * A database in memory keeps its files in memory already: PostgreSQL's shared buffers (128 MB by
 * default) would only copy them, and zeroing them is most of the second it takes to start (the
 * test suites start hundreds). On disk they stay as PostgreSQL sets them.
 */
const IN_MEMORY_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
const pglite = new PGlite(dataDir, {
  parsers: { [INT8_OID]: parseInt8 },
  pgliteWasmModule: wasmModule,
  ...(dataDir === 'memory://' ? { startParams: IN_MEMORY_START } : {}),
  ...(template ? { loadDataDir: new Blob([template]) } : {}),
});

pglite.waitReady.then(
  () => port.postMessage({ ready: true }),
  (error: unknown) => port.postMessage({ ready: false, error: errorFields(error) }),
);

port.on('message', (request: Request) => {
  if ('close' in request) {
    void pglite.close().finally(() => port.postMessage({ id: request.id, rows: [] }));
    return;
  }
  pglite.query(request.sql, request.params).then(
    (result) => port.postMessage({ id: request.id, rows: result.rows, affectedRows: result.affectedRows }),
    (error: unknown) => port.postMessage({ id: request.id, error: errorFields(error) }),
  );
});

/** An error as plain fields (PostgreSQL's code, detail, constraint ...), which cross threads. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) if (typeof value !== 'function' && typeof value !== 'object') fields[key] = value;
  return fields;
}
