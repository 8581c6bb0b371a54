import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';
import { freePort } from '../helpers/process-server.ts';
import { ADMIN_TOKEN, TEST_CHAIN } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * Issue 38 item 4 and issue 40 item 3: a stop (SIGTERM) of an idle server, a busy one (slow
 * clients holding connections, requests in flight) and the demo exits within 10 s, with exit code
 * 0, one log line and no error. Also: a client that does not send its whole request in
 * REQUEST_TIMEOUT_MS gets 408 and its connection closed, counted in /metrics.
 */
interface Served {
  url: string;
  child: ChildProcess;
  lines: string[];
  stderr: string[];
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function serve(args: string[], env: Record<string, string>, ready: (lines: string[]) => boolean): Promise<Served> {
  ensureBuild();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pmx-stop-'));
  dirs.push(dir);
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', ...args], {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, ADMIN_TOKEN, LOG_LEVEL: 'info', SIGNATURE_WORKERS: '0', CHAIN: TEST_CHAIN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const served: Served = { url: `http://127.0.0.1:${port}`, child, lines: [], stderr: [] };
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop()!;
    served.lines.push(...lines);
  });
  child.stderr!.on('data', (chunk: Buffer) => served.stderr.push(chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${served.url}/readyz`).then((r) => r.ok, () => false)) || !ready(served.lines)) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${served.stderr.join('')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not become ready');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return served;
}

/** Sends SIGTERM and resolves with the exit code, the time it took and what the server logged meanwhile. */
async function stop(served: Served): Promise<{ code: number | null; tookMs: number; logged: string[] }> {
  const from = served.lines.length;
  const startedAt = performance.now();
  const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
  served.child.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
  const tookMs = performance.now() - startedAt;
  if (served.child.exitCode === null) served.child.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Request log lines of requests in flight are the requests' own, not the stop's.
  const logged = served.lines.slice(from).filter((line) => line.trim() !== '' && !line.includes('"reqId"'));
  return { code, tookMs, logged };
}

function expectCleanStop(result: { code: number | null; tookMs: number; logged: string[] }, served: Served): void {
  assert.equal(result.code, 0, `exit code ${result.code} after ${Math.round(result.tookMs)} ms`);
  assert.ok(result.tookMs < 10_000, `took ${Math.round(result.tookMs)} ms`);
  assert.equal(result.logged.length, 1, `logged:\n${result.logged.join('\n')}`);
  assert.match(result.logged[0]!, /stopped on SIGTERM/);
  for (const line of served.lines) {
    const level = (JSON.parse(line.startsWith('{') ? line : '{}') as { level?: number }).level ?? 0;
    assert.ok(level < 50, `an error was logged: ${line}`);
  }
  assert.equal(served.stderr.join(''), '');
}

/** A POST that announces 1000 bytes of body and sends 10: a slow client. */
function slowClient(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"message"');
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('stopping the server (SIGTERM)', { skip: storeIndependent('a stop of servers on the embedded store'), timeout: 240_000 }, () => {
  it('cuts a slow client after REQUEST_TIMEOUT_MS with 408, counts it, and stops an idle server at once', async () => {
    const served = await serve([], { REQUEST_TIMEOUT_MS: '1000' }, () => true);
    const socket = await slowClient(served.url);
    const startedAt = performance.now();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => { text += chunk.toString(); });
      socket.on('close', () => resolve(text));
      setTimeout(() => resolve(`still open: ${text}`), 8_000).unref();
    });
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.ok(performance.now() - startedAt < 5_000);
    const metrics = await (await fetch(`${served.url}/metrics`)).text();
    assert.match(metrics, /pmx_http_client_errors_total\{reason="timeout"\} 1/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectCleanStop(await stop(served), served);
  });

  it('stops a busy server, with slow clients and requests in flight, within 10 s', async () => {
    const served = await serve([], {}, () => true);
    const slow = await Promise.all(Array.from({ length: 20 }, () => slowClient(served.url)));
    let busy = true;
    const load = Promise.all(Array.from({ length: 4 }, async () => {
      while (busy) await fetch(`${served.url}/api/v1/events`).then((r) => r.text(), () => undefined);
    }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const result = await stop(served);
    busy = false;
    await load;
    for (const socket of slow) socket.destroy();
    expectCleanStop(result, served);
  });

  it('stops the demo, its market makers trading, within 10 s', async () => {
    const served = await serve(['--demo'], {}, (lines) => lines.some((line) => line.includes('admin token')));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expectCleanStop(await stop(served), served);
  });
});
