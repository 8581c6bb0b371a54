import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { openTestStore } from '../helpers/database.ts';
import { startGatedEngine } from '../helpers/gated-engine.ts';

/**
 * An order sent again with its idempotency key is answered with the order it made (SPEC.md 4.4),
 * as it is now: found in the tables while its cancel is still only in the journal, it was
 * answered PENDING after the cancel was answered CANCELLED (EXTENSIONS.md 12).
 */
describe('engine: an idempotency key sent again after its order changed', () => {
  it('answers the order as it is now, even before the tables hold the change', { timeout: 60_000 }, async () => {
    const store = await openTestStore();
    try {
      const { engine, workload, gated } = await startGatedEngine(store, 'project');
      try {
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
