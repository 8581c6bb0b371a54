import { after, before } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from './catalogue.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface MarketServer {
  readonly server: TestServer;
  readonly market: PublishedMarket;
}

/**
 * For the tests of a describe block: an in-process server with one published market, started
 * before them and closed after. Read `server` and `market` inside the tests (they are set once
 * `before` ran). `env` is added to the server's configuration.
 */
export function serverWithMarket(env: Record<string, string> = {}): MarketServer {
  const world = {} as { server: TestServer; market: PublishedMarket };
  before(async () => {
    world.server = await startTestServer(env);
    world.market = (await createPublishedEvent(world.server)).markets[0]!;
  });
  after(async () => world.server.close());
  return world;
}
