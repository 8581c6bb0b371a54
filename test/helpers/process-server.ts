/**
 * The exchange as its own operating-system process, the built server that `npm start` runs with
 * plain node (`node dist/server/src/cli/main.js serve`), for tests that must kill it the hard way. It answers the same `TestServer` surface the in-process helper does, minus
 * `ctx`, so the HTTP helpers work against it unchanged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { BUILT_CLI, ensureBuild } from './build.ts';
import { ADMIN_TOKEN, TEST_CHAIN } from './server.ts';

export interface ProcessServer {
  url: string;
  port: number;
  api(path: string): string;
  adminHeaders: Record<string, string>;
  /** SIGKILL: no shutdown hook runs, as in a crash or power cut of the process. */
  crash(): Promise<void>;
  /** SIGSTOP and SIGCONT: the process freezes with its connections open, as a stalled machine does. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now. A server that loses it to another process before binding fails to start (EADDRINUSE), never serves someone else's. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts the server; pass the `port` of a crashed one to bring it back where its clients look.
 * `cli` runs another build (a benchmark's reference: another checkout's dist/server/main.js).
 * `readyWithinMs`: how long it may take to answer /readyz (a benchmark's start from a million
 * orders in the tables takes longer than a test's).
 */
export async function startProcessServer(env: Record<string, string>, port?: number, cli = BUILT_CLI, readyWithinMs = 60_000): Promise<ProcessServer> {
  const server = await spawnProcessServer(env, port, cli, readyWithinMs);
  await server.ready;
  return server;
}

/** Starts the server without waiting for it: `ready` resolves once /readyz says so (a test that watches it start). */
export async function spawnProcessServer(env: Record<string, string>, port?: number, cli = BUILT_CLI, readyWithinMs = 60_000): Promise<ProcessServer & { ready: Promise<void> }> {
  port ??= await freePort();
  if (cli === BUILT_CLI) ensureBuild();
  // PMX_SERVER_NODE_ARGS passes node flags to the server (say --cpu-prof to profile a bench run).
  const nodeArgs = process.env.PMX_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', ALLOW_GENERATED_KEYS: 'true', CHAIN: TEST_CHAIN, ...env },
    stdio: ['ignore', process.env.PMX_DEBUG ? 'inherit' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); if (process.env.PMX_DEBUG) process.stderr.write(chunk); });
  const url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
  return {
    ready: waitReady(url, child, () => stderr, readyWithinMs),
    url,
    port,
    api: (path) => `${url}/api/v1${path}`,
    adminHeaders: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    crash: () => exit(child, 'SIGKILL'),
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop: () => exit(child, 'SIGTERM'),
  };
}

async function waitReady(url: string, child: ChildProcess, stderr: () => string, withinMs: number): Promise<void> {
  // A look every 100 ms (on top of its own time).
  for (let attempt = 0; attempt < withinMs / 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr()}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not become ready: ${stderr()}`);
}

function exit(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
