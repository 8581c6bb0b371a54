import { after, before } from 'node:test';
import { createPublishedEvent, type PublishedEvent } from './catalogue.ts';
import { startTestServer, type TestServer } from './server.ts';
import { expectAuditClean, newTrader, type Trader } from './trader.ts';

export interface TwoTraders {
  server: TestServer;
  /** A published event of one market. */
  event: PublishedEvent;
  alice: Trader;
  bob: Trader;
}

/**
 * One test file's world: a server, one published single-market event and two traders funded with
 * 100 each, opened before the file's tests and audited and closed after them. Read the fields
 * inside tests (they are set once the `before` hook has run).
 */
export function useTwoTraders(): TwoTraders {
  const world = {} as TwoTraders;
  before(async () => {
    world.server = await startTestServer();
    world.event = await createPublishedEvent(world.server, { markets: 1 });
    world.alice = await newTrader(world.server, { fund: '100' });
    world.bob = await newTrader(world.server, { fund: '100' });
  });
  after(async () => {
    await expectAuditClean(world.server);
    await world.server.close();
  });
  return world;
}
