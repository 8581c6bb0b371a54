#!/usr/bin/env node
// Runs every *.test.ts under test/ and src/ with node's test runner (TypeScript through tsx).
// Arguments narrow the run to files whose path contains any of them: `npm test -- orders`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// TEST_TIMEOUT_MS bounds each test and hook: one that hangs fails with its name instead of holding the run.
const timeout = process.env.TEST_TIMEOUT_MS ? [`--test-timeout=${process.env.TEST_TIMEOUT_MS}`] : [];
// TEST_FORCE_EXIT=true ends each file's process once its tests are done, even with a handle left
// open (CI's embedded-chain pass: a file there has, rarely, stayed alive after passing).
const forceExit = process.env.TEST_FORCE_EXIT === 'true' ? ['--test-force-exit'] : [];
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...timeout, ...forceExit, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
