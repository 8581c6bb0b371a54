import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Programs still running: `killPrograms()` after the tests, so a failed test leaves none behind. */
const running = new Set<ChildProcess>();

/** The lines a stream has printed so far, and a way to wait for one that matches. */
function lineReader(stream: Readable) {
  const lines: string[] = [];
  const waiting: { match: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of waiting.filter((w) => w.match.test(line))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  /** The first line (printed so far or later) that matches. */
  const line = (match: RegExp) => new Promise<string>((resolve) => {
    const seen = lines.find((l) => match.test(l));
    if (seen !== undefined) resolve(seen);
    else waiting.push({ match, resolve });
  });
  return { lines, line };
}

/**
 * A program (an example, the CLI) as its own process, its output read line by line: TypeScript
 * source through tsx, built JavaScript with plain node.
 */
export function runProgram(file: string, args: string[], env: Record<string, string>) {
  const loader = file.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, file, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = lineReader(child.stdout);
  const stderr = lineReader(child.stderr);
  running.add(child);
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => {
    running.delete(child);
    resolve(code ?? -1);
  }));
  return {
    lines: stdout.lines,
    line: stdout.line,
    errorLine: stderr.line,
    /** Ctrl-C. */
    interrupt: () => child.kill('SIGINT'),
    /** kill -9: nothing of the program runs after it (no exit handler, no goodbye on its sockets). */
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    /** Waits for the exit, which must be 0 (stderr is the failure message). */
    exit: async () => {
      const code = await exited;
      assert.equal(code, 0, stderr.lines.join('\n'));
    },
  };
}

export function killPrograms(): void {
  for (const child of running) child.kill();
}
