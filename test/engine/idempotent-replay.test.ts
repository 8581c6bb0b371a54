import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { createManualClock } from '../../src/clock.ts';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { databaseEngineStore, type EngineStore } from '../../src/engine/journal/journal-store.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { openTestStore } from '../helpers/database.ts';
import { WorkloadCommands } from '../helpers/engine-workload.ts';
import { marketsOf, seedCatalogue, send } from '../helpers/simulation.ts';

/** The journal's store with the projection into the tables held at a gate until `release`: records stay durable and unprojected. */
function gatedProjection(real: EngineStore) {
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  const journal: EngineStore = { ...real, project: async (merged) => {
    await gate?.promise;
    return real.project(merged);
  } };
  return {
    journal,
    hold() {
      let open!: () => void;
      gate = { promise: new Promise<void>((resolve) => { open = resolve; }), open };
    },
    release() {
      gate?.open();
      gate = undefined;
    },
  };
}

/**
 * An order sent again with its idempotency key is answered with the order it made (SPEC.md 4.4),
 * as it is now: found in the tables while its cancel is still only in the journal, it was
 * answered PENDING after the cancel was answered CANCELLED (EXTENSIONS.md 12).
 */
describe('engine: an idempotency key sent again after its order changed', () => {
  it('answers the order as it is now, even before the tables hold the change', { timeout: 60_000 }, async () => {
    const store = await openTestStore();
    try {
      await seedCatalogue(store);
      const workload = new WorkloadCommands();
      const directory = marketsOf(workload);
      const gated = gatedProjection(databaseEngineStore(store.db, { notify: false }));
      const engine = new MatchingEngine({
        db: store.db, store: gated.journal, clock: createManualClock(1_764_000_000_000), events: new DomainEvents(), markets: directory, logger: pino({ level: 'silent' }),
        bookFrameMs: 0, settlementBlockMs: 3_600_000, snapshotPolicy: { everyCommands: 1_000, everyMs: Number.MAX_SAFE_INTEGER },
      });
      await engine.start();
      try {
        for (const command of workload.publish()) await send(engine, command, directory);
        const [command] = workload.toCommands({ kind: 'place', user: 0, market: 0, outcome: 0, side: 'BUY', cents: 40, units: 5, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], 1_764_000_000).commands;
        assert.ok(command?.kind === 'place');
        const order = { ...command.order, idempotencyKey: randomUUID() };
        const placed = await engine.place(order);
        assert.ok(placed.ok);
        // The placement reaches the tables; the cancel after it stays in the journal only.
        while ((await gated.journal.projectedSeq()) < placed.seq) await new Promise((resolve) => setTimeout(resolve, 20));
        gated.hold();
        const cancelled = await engine.cancel(order.userId, placed.order.id);
        assert.ok(cancelled.ok);
        assert.equal(cancelled.order.status, 'CANCELLED');

        const again = await engine.place(order);
        assert.ok(again.ok && again.replayed, 'answered with the order the key made');
        assert.equal(again.order.id, placed.order.id);
        assert.equal(again.order.status, 'CANCELLED', 'not the PENDING row the tables still hold');
      } finally {
        gated.release();
        await engine.stop();
      }
    } finally {
      await store.close();
    }
  });
});
