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

const update = (status: string) => ({ userIds: ['u'], trade: { status } });

describe('PositionProjector in the background', () => {
  it('catches up once for the trade updates a batch announces together, and not for matches', async () => {
    const events = new DomainEvents();
    const projector = new CountingProjector();
    projector.listen(events);
    // A settlement round announces the trades it confirmed, then those it mined, in one go.
    for (const status of ['CONFIRMED', 'CONFIRMED', 'MINED', 'MINED', 'MATCHED']) events.publish('trade-update', update(status));
    await projector.idle();
    assert.equal(projector.catchUps, 1);

    events.publish('trade-update', update('MATCHED'));
    await projector.idle();
    assert.equal(projector.catchUps, 1, 'a match moved nothing in the ledger');
  });

  it('catches up again for updates announced while a catch-up runs', async () => {
    const events = new DomainEvents();
    const projector = new CountingProjector();
    projector.listen(events);
    events.publish('trade-update', update('MINED'));
    await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
    events.publish('trade-update', update('CONFIRMED'));
    await projector.idle();
    assert.equal(projector.catchUps, 2);
  });
});
