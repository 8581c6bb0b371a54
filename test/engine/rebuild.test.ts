import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { createManualClock } from '../../src/clock.ts';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { databaseEngineStore, type EngineStore } from '../../src/engine/journal/journal-store.ts';
import { NotDurableError, StateLoadingError } from '../../src/engine/queue-full-error.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';
import { UNIT, USERS, WorkloadCommands } from '../helpers/engine-workload.ts';
import { FaultyStore, type FaultPoint } from '../helpers/faulty-store.ts';
import { marketsOf, seedCatalogue, send } from '../helpers/simulation.ts';

/** Polls `done` every 10 ms for up to `ms`. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return done();
}

/** An engine over `journal` (the real one, or one that fails as a test says) on the seeded store. */
function engineOver(store: Store, journal: EngineStore, markets: ReturnType<typeof marketsOf>): MatchingEngine {
  return new MatchingEngine({
    db: store.db, store: journal, clock: createManualClock(1_764_000_000_000), events: new DomainEvents(), markets, logger: pino({ level: 'silent' }),
    bookFrameMs: 0, settlementBlockMs: 3_600_000, snapshotPolicy: { everyCommands: 1_000, everyMs: Number.MAX_SAFE_INTEGER },
  });
}

/** A fresh store with the catalogue seeded and the workload's markets, for `body`; closed after it. */
async function onSeededStore(body: (store: Store, workload: WorkloadCommands, directory: ReturnType<typeof marketsOf>) => Promise<void>): Promise<void> {
  const store = await openTestStore();
  try {
    await seedCatalogue(store);
    const workload = new WorkloadCommands();
    await body(store, workload, marketsOf(workload));
  } finally {
    await store.close();
  }
}

/**
 * A failed append leaves the engine's memory ahead of its journal (README.md "Recovery"): the
 * engine rebuilds its state from the store, serving nothing of it meanwhile, and tries the store
 * again for as long as it fails instead of halting until someone restarts it.
 */
describe('engine: the rebuild after a failed append', () => {
  it('serves nothing while it rebuilds, tries the store until it answers, then takes commands on the journal’s state', { timeout: 60_000 }, async () => {
    await onSeededStore(async (store, workload, directory) => {
      let failNextAppend = false;
      let failingReads = 0;
      const fault = (point: FaultPoint) => {
        if (point === 'append:before' && failNextAppend) {
          failNextAppend = false;
          return true;
        }
        if (point.endsWith(':before') && !point.startsWith('append') && failingReads > 0) {
          failingReads -= 1;
          return true;
        }
        return false;
      };
      const newEngine = (faults: boolean) => engineOver(store, new FaultyStore(databaseEngineStore(store.db, { notify: false }), (point) => faults && fault(point)), directory);
      const engine = newEngine(true);
      await engine.start();
      for (const command of workload.publish()) await send(engine, command, directory);
      const credit = (ref: string) => engine.credit({ account: USERS[0]!, amount: 5n * UNIT, reason: 'DEPOSIT', ref });

      // The append fails, and so do the rebuild's first six reads (a store down for about 2.5 s).
      failNextAppend = true;
      failingReads = 6;
      await assert.rejects(credit('never durable'), NotDurableError);
      assert.ok(await eventually(() => !engine.whole, 1_000), 'the engine says its state is not whole while it rebuilds');
      assert.equal(engine.takesCommands, false);
      await assert.rejects(engine.caughtUp(), StateLoadingError);

      assert.ok(await eventually(() => engine.takesCommands, 15_000), 'the engine takes commands again once the store answers');
      assert.equal(failingReads, 0, 'every failed read was tried again');
      assert.ok(engine.whole);
      await credit('after the rebuild');
      const live = engine.stateHash();
      await engine.stop();

      // Its memory is the journal's: a fresh recovery reaches the same state, without the lost credit.
      const recovered = newEngine(false);
      await recovered.start();
      assert.deepEqual(recovered.stateHash(), live);
      await recovered.stop();
    });
  });

  it('ends a settle() that waits for a record whose append then fails: the rebuilt state is the journal’s, and the record never comes', { timeout: 60_000 }, async () => {
    await onSeededStore(async (store, workload, directory) => {
      const real = databaseEngineStore(store.db, { notify: false });
      let held: Promise<void> | undefined;
      let release = () => {};
      // An append held until released, then failing: the record stays in memory, not durable, meanwhile.
      const engine = engineOver(store, { ...real, append: async (...args) => {
        if (!held) return real.append(...args);
        await held;
        throw new Error('the store went away');
      } }, directory);
      await engine.start();
      for (const command of workload.publish()) await send(engine, command, directory);
      const before = engine.stateHash().seq;
      held = new Promise((resolve) => { release = resolve; });
      const lost = engine.credit({ account: USERS[0]!, amount: 5n * UNIT, reason: 'DEPOSIT', ref: 'never durable' });
      assert.ok(await eventually(() => engine.stateHash().seq > before, 5_000), 'the credit is applied, its append held');
      const settled = engine.settle().then(() => 'settled' as const);
      await new Promise((resolve) => setTimeout(resolve, 100));
      held = undefined;
      release();
      await assert.rejects(lost, NotDurableError);
      const waiting = new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 10_000).unref());
      assert.equal(await Promise.race([settled, waiting]), 'settled');
      assert.equal(engine.stateHash().seq, before, 'the state is the journal’s, without the lost credit');
      await engine.stop();
    });
  });
});
