import { spawn, type ChildProcess } from 'node:child_process';
import { anvilBinaryPath } from './anvil-binary.ts';
import { callJsonRpc } from './json-rpc.ts';

/**
 * Runs anvil under a small POSIX shell guard so that it never outlives the server, however the
 * server ends: the guard reads its stdin (a pipe from the server) until end of file, which comes
 * when the server closes it (a stop) or when the server's process is gone (a crash, kill -9), and
 * then sends anvil SIGTERM, on which anvil dumps its state and exits. If anvil exits first, the
 * guard exits with its status (128 + the signal when it was killed). The guard prints anvil's pid,
 * so the server can name (and tests can kill) the process that holds the chain.
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
  /** The loopback port to listen on; unset, one anvil chooses (port 0). */
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
  // A process group of its own: a terminal's Ctrl-C (SIGINT to the server's group) is the server's
  // to act on, and it stops anvil itself, dumping its state; anvil still dies with the server (GUARD).
  const child = spawn('/bin/sh', ['-c', GUARD, 'anvil-guard', anvilBinaryPath(), ...anvilArguments(options)], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let ended = false;
  const exited = exitOf(child).then((exit) => {
    ended = true;
    return exit;
  });
  const output = recentOutput(child);
  let pid: number | undefined;
  try {
    const listening = await Promise.race([pidAndPort(child), exited.then(() => undefined)]);
    pid = listening?.pid;
    // The port from anvil's own log: a URL that answers is then this anvil, never another one on a port this one failed to bind.
    const url = listening === undefined ? '' : `http://127.0.0.1:${listening.port}`;
    const answers = listening !== undefined && (await answersChainId(url, options.chainId, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, () => ended));
    if (listening === undefined || !answers) throw new Error(`anvil did not start on port ${options.port ?? 0}: ${output() || 'no output'}`);
    const started = listening.pid;
    return { url, port: listening.port, pid: started, exited, stop: (limitMs = 5_000) => stopAnvil(child, started, exited, limitMs) };
  } catch (error) {
    // Anvil itself too: killing the guard alone would leave it to the guard's watcher, which waits for this process to end.
    child.stdin?.end();
    if (pid !== undefined) killQuietly(pid);
    child.kill('SIGKILL');
    throw error;
  }
}

/** Not --silent, which would also hide the "Listening on" line the port is read from; the rest of the log is drained. */
function anvilArguments(options: AnvilOptions): string[] {
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(options.chainId), '--disable-console-log'];
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

/** The guard's "anvil-pid" line and anvil's "Listening on" line, in whichever order they come; the rest of stdout is drained unread. */
function pidAndPort(guard: ChildProcess): Promise<{ pid: number; port: number }> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const pid = /anvil-pid (\d+)/.exec(text)?.[1];
      const port = /Listening on 127\.0\.0\.1:(\d+)/.exec(text)?.[1];
      if (pid === undefined || port === undefined) return;
      guard.stdout?.off('data', onData);
      guard.stdout?.resume();
      resolve({ pid: Number(pid), port: Number(port) });
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
