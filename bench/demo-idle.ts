/**
 * The demo left alone: `npm run bench -- demo-idle`. Starts `npm run demo` as it runs (node on
 * dist/server/main.js serve --demo, the embedded store in an empty directory), lets it seed and its
 * bots start for BENCH_WARMUP_S seconds (default 30), then reads the server process's CPU time from
 * /proc over BENCH_SECONDS (default 120): the share of one core the demo costs while no person
 * trades, its own market makers, taker bot and BTC/USD price walk included. Also how many trades
 * the bots made meanwhile, so that "quiet" is not "dead". Reference: under 10% of a core.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuild } from '../test/helpers/build.ts';
import { freePort } from '../test/helpers/process-server.ts';
import { EMBEDDED_STORE_ENV } from './stores.ts';

const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
/** Linux's USER_HZ, the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; undefined off Linux. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function tradeCount(url: string): Promise<number> {
  const page = (await (await fetch(`${url}/api/v1/trades?limit=500`)).json()) as { data: unknown[] };
  return page.data.length;
}

ensureBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'pmx-demo-idle-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['dist/server/main.js', 'serve', '--demo'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...EMBEDDED_STORE_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
try {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the demo exited with ${child.exitCode}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
  const trades0 = await tradeCount(url);
  const cpu0 = cpuSeconds(child.pid!);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const cpu1 = cpuSeconds(child.pid!);
  const elapsed = (performance.now() - started) / 1000;
  const trades1 = await tradeCount(url);
  if (cpu0 === undefined || cpu1 === undefined) console.log('no /proc on this machine: nothing measured');
  else {
    const share = ((cpu1 - cpu0) / elapsed) * 100;
    console.log(`demo left alone, ${elapsed.toFixed(0)} s after ${WARMUP_S} s of warm-up: ${share.toFixed(1)}% of a core (${(cpu1 - cpu0).toFixed(1)} CPU s), the bots made ${trades1 - trades0}${trades1 >= 500 ? '+' : ''} trade(s)   reference: under 10% of a core`);
  }
} finally {
  await new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
  rmSync(dataDir, { recursive: true, force: true });
}
