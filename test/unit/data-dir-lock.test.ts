import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError } from '../../src/config.ts';
import { DATA_DIR_LOCK_FILE, dataDirEmpty, dataDirHolder, lockDataDir, recordServerUrl } from '../../src/data-dir-lock.ts';

/** One process at a time in a data directory (src/data-dir-lock.ts). */
describe('the data directory lock', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmx-lock-'));
    dirs.push(dir);
    return dir;
  };
  const lockFile = (dir: string) => join(dir, DATA_DIR_LOCK_FILE);
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is counted within a process, and the file goes with the last release', () => {
    const dir = newDir();
    const store = lockDataDir(dir);
    const chain = lockDataDir(dir);
    assert.deepEqual(JSON.parse(readFileSync(lockFile(dir), 'utf8')), { pid: process.pid, url: null });
    recordServerUrl(dir, 'http://127.0.0.1:3000');
    assert.deepEqual(JSON.parse(readFileSync(lockFile(dir), 'utf8')), { pid: process.pid, url: 'http://127.0.0.1:3000' });
    assert.equal(dataDirEmpty(dir), true, 'a lock is not data');
    store.release();
    store.release();
    assert.ok(existsSync(lockFile(dir)), 'the chain still holds it');
    chain.release();
    assert.equal(existsSync(lockFile(dir)), false);
  });

  it('refuses a directory a live process holds, naming it and its server; takes over one whose process is gone', async () => {
    const dir = newDir();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lockFile(dir), JSON.stringify({ pid: other.pid, url: 'http://127.0.0.1:3999' }));
      assert.deepEqual(dataDirHolder(dir), { pid: other.pid, url: 'http://127.0.0.1:3999' });
      assert.throws(() => lockDataDir(dir), (error: unknown) => error instanceof ConfigError && error.message.includes(`in use by process ${other.pid} (the exchange at http://127.0.0.1:3999)`));
      assert.equal(JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid, other.pid, 'the holder keeps its lock');
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    assert.equal(dataDirHolder(dir), undefined);
    const taken = lockDataDir(dir);
    assert.equal(JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid, process.pid);
    taken.release();
  });

  it('takes over a lock file torn by a crash', () => {
    const dir = newDir();
    writeFileSync(lockFile(dir), '{"pid": 12');
    lockDataDir(dir).release();
    assert.equal(existsSync(lockFile(dir)), false);
  });
});
