import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/** The compiled CLI that `npm start` runs with plain node (scripts/build.mjs writes it). */
export const BUILT_CLI = 'dist/server/main.js';

let built = false;

/**
 * Brings the build (server, SDK package, web app) up to date once per test process, as `npm start`
 * does, so that tests of the built server never run stale output (`npm test` builds first too).
 */
export function ensureBuild(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed (node scripts/build.mjs)');
  built = true;
}

/**
 * Runs `pmx audit` of the built CLI on the store `env` names (no server may hold a PGlite one).
 * A DATABASE_URL of the test process never leaks into a PGlite store's audit.
 */
export function runBuiltAudit(env: Record<string, string>): SpawnSyncReturns<string> {
  ensureBuild();
  return spawnSync(process.execPath, [BUILT_CLI, 'audit'], { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env }, encoding: 'utf8' });
}

/** Runs the built audit on a store and expects it clean. */
export function expectBuiltAuditClean(env: Record<string, string>): void {
  const audit = runBuiltAudit(env);
  if (audit.status !== 0) throw new Error(`audit failed:\n${audit.stdout}\n${audit.stderr}`);
}
