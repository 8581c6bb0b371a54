import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILT_CLI, runBuiltAudit } from '../helpers/build.ts';
import { killPrograms } from '../helpers/program.ts';
import { createScratchDatabase, POSTGRES_URL, postgresReachable } from '../helpers/database.ts';
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

/**
 * pmx audit on PostgreSQL with the embedded chain reads the chain through the server its data
 * directory's lock names. It says what it compared the ledger with, and a server that does not
 * listen yet is a chain it could not reach, said so, where a description stood in for the URL the
 * audit then tried to read.
 */
describe("pmx audit: the chain of the data directory's server", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-audit-chain-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the server it read the chain through, and says plainly when that server does not listen yet', async (t) => {
    if (!(await postgresReachable(POSTGRES_URL))) return t.skip('no PostgreSQL');
    const database = await createScratchDatabase(POSTGRES_URL);
    try {
      const env = { DATA_DIR: dir, DATABASE_URL: database.url, CHAIN: 'embedded', LOG_LEVEL: 'silent' };
      // A live Node process holds the directory: this test's own, whose server is not listening.
      const holdBy = (url: string | null) => writeFileSync(join(dir, 'pmx.lock'), `${JSON.stringify({ pid: process.pid, url })}\n`);
      holdBy(null);
      const waiting = runBuiltAudit(env);
      assert.equal(waiting.status, 1, waiting.stderr + waiting.stdout);
      assert.match(waiting.stdout, /^audited 0 journal records .*, 0 trades\n/);
      assert.equal(waiting.stderr, `BROKEN chain-unreachable: the data directory's chain belongs to process ${process.pid}, whose server is not listening yet (run the audit again once it listens): the ledger was not compared with it\n`);

      const port = await freePort();
      holdBy(`http://127.0.0.1:${port}`);
      const gone = runBuiltAudit(env);
      assert.equal(gone.status, 1, gone.stderr + gone.stdout);
      assert.match(gone.stdout, new RegExp(`, 0 wallets against the chain of the running server at http://127\\.0\\.0\\.1:${port} \\(its /rpc\\)\n`));
      assert.match(gone.stderr, new RegExp(`^BROKEN chain-unreachable: the chain at http://127\\.0\\.0\\.1:${port}/rpc did not answer \\(`));
    } finally {
      await database.drop();
    }
  });
});
