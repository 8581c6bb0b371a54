/**
 * `npm run bench -- simulate --seeds N [--from S] [--steps K]`: the engine's deterministic
 * simulation (test/helpers/simulation.ts) over N seeds from S (default 1): seeded workloads with
 * faults and crashes, each checked for lost acknowledgements, recoveries that are not the
 * journal's replay, and a dirty audit. CI runs a few fixed seeds (test/engine/simulation.test.ts);
 * this runs many. Exits 1 naming every failing seed, which reproduces with the same seed.
 */
import { simulate } from '../test/helpers/simulation.ts';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const seeds = option('seeds', 20);
const from = option('from', 1);
const steps = option('steps', 40);
const failing: number[] = [];
let crashes = 0;
let faults = 0;
let acknowledged = 0;
const started = performance.now();
for (let seed = from; seed < from + seeds; seed++) {
  const report = await simulate(seed, { steps });
  crashes += report.crashes;
  faults += report.faults.length;
  acknowledged += report.acknowledged;
  console.log(`seed ${seed}: ${report.crashes} crashes, ${report.faults.length} faults, ${report.acknowledged} orders acknowledged, ${report.records} records${report.violations.length > 0 ? `, FAILED: ${report.violations.join('; ')}` : ''}`);
  if (report.violations.length > 0) failing.push(seed);
}
console.log(`${seeds} seeds in ${((performance.now() - started) / 1000).toFixed(1)} s: ${crashes} crashes, ${faults} faults, ${acknowledged} orders acknowledged; ${failing.length === 0 ? 'every seed recovered to the journal and audited clean' : `failing seeds: ${failing.join(', ')}`}`);
if (failing.length > 0) process.exitCode = 1;
