import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { PositionProjector } from '../../src/portfolio/projector.ts';
import type { Db } from '../../src/store/database.ts';

/** Counts catch-ups instead of reading a store; each takes a turn, as a read of the store would. */
class CountingProjector extends PositionProjector {
  catchUps = 0;

  constructor() {
    super(undefined as unknown as Db);
  }

  override async catchUp(): Promise<void> {
    this.catchUps++;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const projected = { transactions: 3 };

describe('PositionProjector in the background', () => {
  it('catches up once for the projections announced together, and not for trade updates', async () => {
    const events = new DomainEvents();
    const projector = new CountingProjector();
    projector.listen(events);
    for (let i = 0; i < 3; i++) events.publish('ledger-projected', projected);
    await projector.idle();
    assert.equal(projector.catchUps, 1);

    // Announced once the record is durable, before the tables hold its ledger rows: nothing to read yet.
    events.publish('trade-update', { userIds: ['u'], trade: { status: 'MINED' } });
    await projector.idle();
    assert.equal(projector.catchUps, 1);
  });

  it('catches up again for projections announced while a catch-up runs', async () => {
    const events = new DomainEvents();
    const projector = new CountingProjector();
    projector.listen(events);
    events.publish('ledger-projected', projected);
    await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
    events.publish('ledger-projected', projected);
    await projector.idle();
    assert.equal(projector.catchUps, 2);
  });
});
