import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulate } from '../helpers/simulation.ts';

/**
 * The seeds CI runs: 8 on PostgreSQL, the first 2 on PGlite (whose store takes seconds to open for
 * each seed); `npm run bench -- simulate --seeds N` runs many more on either.
 */
const SEEDS = process.env.DATABASE_URL ? [1, 2, 3, 4, 5, 6, 7, 8] : [1, 2];

/**
 * The deterministic simulation (test/helpers/simulation.ts): seeded workloads over the real engine
 * and projector on a real store, with faults between them and crashes at any moment. Every seed
 * recovers to the journal's state and ends with a clean audit.
 */
describe('engine: deterministic simulation with faults and crashes', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: nothing acknowledged is lost, every recovery is the journal's replay, the audit is clean`, { timeout: 300_000 }, async () => {
      const report = await simulate(seed);
      assert.deepEqual(report.violations, [], JSON.stringify({ ...report, records: report.records.toString() }));
      assert.ok(report.acknowledged > 0, 'the workload acknowledged orders');
    });
  }
});
