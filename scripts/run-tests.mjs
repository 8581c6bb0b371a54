#!/usr/bin/env node
// Runs every *.test.ts under test/ and src/ with node's test runner.
// Arguments narrow the run to files whose path contains any of them: `npm test -- orders`.
//
// The test files are bundled first (esbuild: TypeScript to JavaScript, the project's modules in
// shared chunks, npm packages left to node), and node runs the bundles. Loading the exchange's
// source through tsx's loader cost each test file's process about 4 s of CPU before its first
// test (its hooks resolve and load every module off-thread), against under 1 s from a bundle: on
// two cores, with three suites at once, that was a third of CI. TEST_LOADER=tsx runs the sources
// under tsx as before.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_BUNDLE, WORKER_ENTRIES } from './node-bundle.mjs';

function collect(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(collect(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['test', 'src']
  .flatMap((dir) => collect(dir))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Tests that start the exchange as its own process run the build, as npm start does: bring it up to date first.
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// --liftoff-only: the embedded PostgreSQL's WebAssembly stays on V8's baseline compiler in the test
// processes. A test process boots a few short-lived stores, and tiering their hot functions up to
// TurboFan cost about 0.7 s of CPU a boot that the rest of the run never earned back: test/api and
// test/engine (71 files) took 437 s of CPU and 246 s on the 2-core machine (two runs) against
// 336-384 s and 199-221 s with it (three runs). Servers the tests start as processes, and every
// real server, keep V8's defaults.
const WASM = ['--liftoff-only'];
const runnable = process.env.TEST_LOADER === 'tsx' ? { files, nodeArgs: ['--import', 'tsx', ...WASM] } : { files: await bundle(files), nodeArgs: ['--enable-source-maps', ...WASM] };
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// TEST_TIMEOUT_MS bounds each test and hook: one that hangs fails with its name instead of holding the run.
const timeout = process.env.TEST_TIMEOUT_MS ? [`--test-timeout=${process.env.TEST_TIMEOUT_MS}`] : [];
// TEST_FORCE_EXIT=true ends each file's process once its tests are done, even with a handle left
// open (CI's embedded-chain pass: a file there has, rarely, stayed alive after passing).
const forceExit = process.env.TEST_FORCE_EXIT === 'true' ? ['--test-force-exit'] : [];
// TEST_TIMES_FILE also writes each file's time to that file, slowest first (scripts/test-file-times.mjs).
const times = process.env.TEST_TIMES_FILE ? ['--test-reporter-destination=stdout', '--test-reporter=./scripts/test-file-times.mjs', `--test-reporter-destination=${process.env.TEST_TIMES_FILE}`] : [];
const result = spawnSync(process.execPath, [...runnable.nodeArgs, '--test', '--test-reporter=spec', ...times, `--test-concurrency=${concurrency}`, ...timeout, ...forceExit, ...runnable.files], { stdio: 'inherit' });
process.exit(result.status ?? 1);

/**
 * The files as bundles in one directory of the project (so the modules that find the project from
 * their own location, src/build-output.ts, still do), each named after its path, with the worker
 * modules the server starts beside the chunks (src/worker-module.ts). Each run writes its own
 * directory: CI runs two suites at once from one checkout.
 */
async function bundle(sources) {
  const esbuild = await import('esbuild');
  const outdir = join('node_modules', '.cache', 'pmx-tests', String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const entryName = (file) => file.replace(/\.ts$/, '').replaceAll('/', '__');
  // The examples run as programs when their module is the process's script (import.meta.url is
  // argv[1]): as entries of their own they never sit inside a test's file, where a test file that
  // alone imports one would run it (`npm test -- demo` did).
  const examples = readdirSync('examples').filter((name) => name.endsWith('.ts')).map((name) => join('examples', name));
  await esbuild.build({
    entryPoints: {
      ...Object.fromEntries([...sources, ...examples].map((file) => [entryName(file), file])),
      ...WORKER_ENTRIES,
    },
    outdir,
    chunkNames: 'chunk-[hash]',
    ...NODE_BUNDLE,
    packages: 'external',
    logLevel: 'error',
  });
  // The tests run for minutes after this: esbuild's service need not stay up beside them.
  esbuild.stop();
  return sources.map((file) => join(outdir, `${entryName(file)}.js`));
}
