/**
 * Boot time: `npm run bench -- boot`. Milliseconds from spawning the server to the first 200 of
 * GET /readyz, on the embedded store, for the built server that `npm start` runs (node on
 * dist/server/main.js) beside its reference, the TypeScript source through tsx (what `npm start`
 * ran before there was a build). Each is measured on an existing ./data (the common restart) and on
 * an empty one (the first start, from the build's database template), BENCH_ROUNDS
 * times (default 3), median and range printed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuild } from '../test/helpers/build.ts';
import { freePort } from '../test/helpers/process-server.ts';
import { EMBEDDED_STORE_ENV } from './stores.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COMMANDS = {
  'built (node dist/server/main.js)': ['dist/server/main.js', 'serve'],
  'source (tsx src/cli/main.ts)': ['--import', 'tsx', 'src/cli/main.ts', 'serve'],
};

async function bootMs(args: string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...EMBEDDED_STORE_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(0).padStart(6)} ms  (${sorted[0]!.toFixed(0)}-${sorted.at(-1)!.toFixed(0)})`;
}

ensureBuild();
console.log(`time to /readyz on PGlite, median of ${ROUNDS} (range)`);
for (const [name, args] of Object.entries(COMMANDS)) {
  const existing = mkdtempSync(join(tmpdir(), 'pmx-boot-'));
  try {
    await bootMs(args, existing); // creates the data directory and migrates it
    const fresh: number[] = [];
    const restart: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      restart.push(await bootMs(args, existing));
      const empty = mkdtempSync(join(tmpdir(), 'pmx-boot-'));
      try {
        fresh.push(await bootMs(args, empty));
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    }
    console.log(`${name.padEnd(36)} existing ./data ${summary(restart)}   empty ./data ${summary(fresh)}`);
  } finally {
    rmSync(existing, { recursive: true, force: true });
  }
}
