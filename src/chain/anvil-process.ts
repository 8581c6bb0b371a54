import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { anvilBinaryPath } from './anvil-binary.ts';
import { callJsonRpc } from './json-rpc.ts';

/**
 * Runs anvil under a small POSIX shell guard so that it never outlives the server, however the
 * server ends: the guard reads its stdin (a pipe from the server) until end of file, which comes
 * when the server closes it (a stop) or when the server's process is gone (a crash, kill -9), and
 * then sends anvil SIGTERM, on which anvil dumps its state and exits. If anvil exits first, the
 * guard exits with its status (128 + the signal when it was killed). The guard prints anvil's pid
 * first, so the server can name (and tests can kill) the process that holds the chain.
 */
const GUARD = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'anvil=$!',
  'echo "anvil-pid $anvil"',
  '{ while read -r _ <&3; do :; done; kill -TERM "$anvil" 2>/dev/null; } &',
  'watch=$!',
  'wait "$anvil"; status=$?',
  'kill "$watch" 2>/dev/null',
  'exit $status',
].join('\n');

export interface AnvilOptions {
  readonly chainId: number;
  /** The loopback port to listen on; unset, a free one. */
  readonly port?: number | undefined;
  /** Starts the chain from this state file (anvil's --load-state); unset, from genesis. */
  readonly loadStateFile?: string | undefined;
  /** Dumps the chain's state to this file on exit and every `stateIntervalS` (anvil's --dump-state). */
  readonly dumpStateFile?: string | undefined;
  /** With `dumpStateFile`: seconds between two dumps, so a kill -9 of anvil loses at most that much. */
  readonly stateIntervalS?: number | undefined;
  /** How long anvil may take to answer eth_chainId. */
  readonly startTimeoutMs?: number | undefined;
}

/** How one anvil process ended: its exit code, or the signal that killed it. */
export interface AnvilExit {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface AnvilProcess {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly port: number;
  /** The pid of anvil itself (not of its guard). */
  readonly pid: number;
  /** Resolves when anvil has exited, however it ended. */
  readonly exited: Promise<AnvilExit>;
  /** SIGTERM through the guard (anvil dumps its state), then SIGKILL after `limitMs`. */
  stop(limitMs?: number): Promise<AnvilExit>;
}

/** Loading a long chain's state takes a while: a start is given up only after this. */
const DEFAULT_START_TIMEOUT_MS = 60_000;
const POLL_MS = 20;

/** Starts anvil and resolves once it answers eth_chainId with the configured chain id. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  const port = options.port ?? (await freeLoopbackPort());
  const child = spawn('/bin/sh', ['-c', GUARD, 'anvil-guard', anvilBinaryPath(), ...anvilArguments(options, port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let ended = false;
  const exited = exitOf(child).then((exit) => {
    ended = true;
    return exit;
  });
  const output = recentOutput(child);
  let pid: number | undefined;
  try {
    pid = await Promise.race([anvilPid(child), exited.then(() => undefined)]);
    const url = `http://127.0.0.1:${port}`;
    const answers = await answersChainId(url, options.chainId, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, () => ended);
    if (pid === undefined || !answers) throw new Error(`anvil did not start on port ${port}: ${output() || 'no output'}`);
    const started = pid;
    return { url, port, pid: started, exited, stop: (limitMs = 5_000) => stopAnvil(child, started, exited, limitMs) };
  } catch (error) {
    // Anvil itself too: killing the guard alone would leave it to the guard's watcher, which waits for this process to end.
    child.stdin?.end();
    if (pid !== undefined) killQuietly(pid);
    child.kill('SIGKILL');
    throw error;
  }
}

function anvilArguments(options: AnvilOptions, port: number): string[] {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(options.chainId), '--silent'];
  if (options.loadStateFile !== undefined) args.push('--load-state', options.loadStateFile);
  if (options.dumpStateFile !== undefined) args.push('--dump-state', options.dumpStateFile, '--state-interval', String(options.stateIntervalS ?? 1));
  return args;
}

async function stopAnvil(guard: ChildProcess, pid: number, exited: Promise<AnvilExit>, limitMs: number): Promise<AnvilExit> {
  guard.stdin?.end();
  const timer = setTimeout(() => {
    killQuietly(pid);
    guard.kill('SIGKILL');
  }, limitMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The guard's exit, read as anvil's: a status above 128 is the signal that killed anvil. */
function exitOf(guard: ChildProcess): Promise<AnvilExit> {
  return new Promise((resolve) => {
    guard.once('exit', (code, signal) => {
      if (code !== null && code > 128) resolve({ code: null, signal: signalName(code - 128) });
      else resolve({ code, signal });
    });
  });
}

function signalName(number: number): string {
  return number === 9 ? 'SIGKILL' : number === 15 ? 'SIGTERM' : number === 2 ? 'SIGINT' : `signal ${number}`;
}

function anvilPid(guard: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /anvil-pid (\d+)/.exec(text);
      if (!match) return;
      guard.stdout?.off('data', onData);
      // Anvil runs --silent: anything later on stdout is not read, only drained.
      guard.stdout?.resume();
      resolve(Number(match[1]));
    };
    guard.stdout?.on('data', onData);
  });
}

/** The last lines anvil wrote to stderr, for the message when it fails to start. */
function recentOutput(guard: ChildProcess): () => string {
  let tail = '';
  guard.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2_000);
  });
  return () => tail.trim();
}

async function answersChainId(url: string, chainId: number, timeoutMs: number, ended: () => boolean): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !ended()) {
    const answered = await callJsonRpc<string>(url, 'eth_chainId', [], 500).catch(() => undefined);
    if (answered !== undefined) {
      if (Number(answered) !== chainId) throw new Error(`anvil answered chain id ${Number(answered)}, not ${chainId}`);
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

/** A port free on 127.0.0.1 now; anvil binds it a moment later (a start that loses the race fails and is retried). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
