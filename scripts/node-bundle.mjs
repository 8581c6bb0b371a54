// What every esbuild bundle of the project's TypeScript for node shares: the server's build
// (scripts/build.mjs) and the tests' (scripts/run-tests.mjs). ES modules in chunks, so the worker
// modules the server starts (src/worker-module.ts) sit beside the code that starts them.
export const NODE_BUNDLE = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
};

/** The worker modules the server starts, as entry points named as src/worker-module.ts looks for them. */
export const WORKER_ENTRIES = { worker: 'src/engine/signatures/worker.ts', 'pglite-thread': 'src/store/pglite-thread.ts' };
