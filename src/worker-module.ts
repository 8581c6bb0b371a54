import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker module `name` that sits beside the module at `callerUrl` (its
 * `import.meta.url`). Built, that is `name.js`, plain JavaScript beside the caller's chunk
 * (scripts/build.mjs builds each worker as an entry point). Run from TypeScript source (the tests,
 * under tsx), Node 20's workers do not inherit the loader (tsx issue #354), so the worker is a
 * one-line script that loads tsx's scoped API first, then the TypeScript module.
 */
export function startWorkerModule(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const source = new URL(`./${name}.ts`, callerUrl);
  const script = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(callerUrl)}));`;
  return new Worker(script, { ...options, eval: true });
}
