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
 * `fund` each (default 100), who split `split` of it into both outcome tokens when given, opened
 * before the file's tests; trades settled, audited and closed after them. Read the fields inside
 * tests (they are set once the `before` hook has run).
 */
export function useTwoTraders(options: { fund?: string; split?: string } = {}): TwoTraders {
  const world = {} as TwoTraders;
  before(async () => {
    world.server = await startTestServer();
    world.event = await createPublishedEvent(world.server, { markets: 1 });
    world.alice = await newTrader(world.server, { fund: options.fund ?? '100' });
    world.bob = await newTrader(world.server, { fund: options.fund ?? '100' });
    if (options.split) {
      for (const trader of [world.alice, world.bob]) await trader.call('POST', `/markets/${world.event.markets[0]!.id}/split`, { amount: options.split });
    }
  });
  after(async () => {
    await world.server.ctx.trading.engine.settle();
    await expectAuditClean(world.server);
    await world.server.close();
  });
  return world;
}
