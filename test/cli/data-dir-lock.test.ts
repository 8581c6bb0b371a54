import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILT_CLI, runBuiltAudit } from '../helpers/build.ts';
import { killPrograms } from '../helpers/program.ts';
import { freePort, startProcessServer } from '../helpers/process-server.ts';

/**
 * A data directory belongs to one process (src/data-dir-lock.ts): `pmx audit` or a second server
 * beside a running server on the embedded database is refused, where it used to open the same
 * PGlite files, answer, and leave a database that no longer opened after the next crash.
 */
describe('one process a data directory', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-dir-lock-'));
  const env = { DATA_DIR: dir, DATABASE_URL: '', CHAIN: 'none' };
  after(() => {
    killPrograms();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses pmx audit and a second server while a server runs on it, naming the server; the audit runs once it stopped', async () => {
    const server = await startProcessServer(env);
    try {
      const audit = runBuiltAudit({ ...env, LOG_LEVEL: 'silent' });
      assert.equal(audit.status, 1, audit.stdout);
      assert.match(audit.stderr, new RegExp(`configuration error: the data directory .* is in use by process \\d+ \\(the exchange at http://127\\.0\\.0\\.1:${server.port}\\)`));
      assert.doesNotMatch(audit.stdout, /every invariant holds/);

      const port = await freePort();
      const second = spawnSync(process.execPath, [BUILT_CLI, 'serve'], { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ALLOW_GENERATED_KEYS: 'true' }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(second.status, 1, second.stderr);
      assert.match(second.stderr, /is in use by process \d+/);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200, 'the running server is untouched');
    } finally {
      await server.stop();
    }
    const audit = runBuiltAudit({ ...env, LOG_LEVEL: 'silent' });
    assert.equal(audit.status, 0, audit.stderr + audit.stdout);
    assert.match(audit.stdout, /every invariant holds/);
  });
});
