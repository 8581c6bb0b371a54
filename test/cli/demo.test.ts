import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.ts';
import { demoBanner, demoConfig, seedDemo } from '../../src/cli/demo.ts';
import { startDemoMakers } from '../../src/cli/demo-makers.ts';
import { parseConfig } from '../../src/config.ts';
import { get } from '../helpers/http.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';

describe('demo seed', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  it('publishes single, multi-market and negRisk events once, and skips on a re-run', async () => {
    assert.equal(await seedDemo(server.ctx), true);
    const events = (await get(server.api('/events?limit=100'))).body;
    assert.equal(events.total, 3);
    assert.ok(events.data.some((e: { single: boolean }) => e.single));
    assert.ok(events.data.some((e: { negRisk: boolean; markets: unknown[] }) => e.negRisk && e.markets.length > 2));
    for (const event of events.data) {
      assert.equal(event.eventStatus, 'ACTIVE');
      assert.ok(event.categories.length > 0 && event.tags.length > 0);
      for (const market of event.markets) assert.match(market.tokenId1, /^\d+$/);
    }
    assert.equal(await seedDemo(server.ctx), false);
    assert.equal((await get(server.api('/events?limit=100'))).body.total, 3);
  });

  it("runs the examples' market maker on every market and their taker bot, and cancels the quotes on stop", async () => {
    await seedDemo(server.ctx);
    const client = createClient({ baseUrl: server.url });
    const markets = (await client.events.list({ limit: 100 })).data.flatMap((e) => e.markets);
    const tokenIds = markets.map((m) => m.tokenId1!);
    const trades = client.trades.follow();
    const books = client.watchBook(tokenIds);
    await Promise.all([trades.subscribed(), books.ready()]);
    const makers = await startDemoMakers(server.url, ADMIN_TOKEN, { pauseMs: 0 });
    try {
      // Requotes empty a book for a moment: each must show both sides at some point, and trades must flow.
      for (const tokenId of tokenIds) await books.until(tokenId, (book) => book.bestBid() !== undefined && book.bestAsk() !== undefined);
      for await (const trade of trades) {
        assert.ok(markets.some((m) => m.id === trade.marketId));
        break;
      }
    } finally {
      books.close();
      await makers.stop();
    }
    for (const tokenId of tokenIds) assert.deepEqual(await client.book.get(tokenId).then((b) => [b.bids, b.asks]), [[], []]);
  });

  it('generates an admin token only when none is configured, and prints it', () => {
    const bare = parseConfig({});
    const { config, generatedAdminToken } = demoConfig(bare);
    assert.match(generatedAdminToken!, /^[0-9a-f]{48}$/);
    assert.equal(config.adminToken, generatedAdminToken);
    const configured = parseConfig({ ADMIN_TOKEN: 'configured-token-123456' });
    assert.deepEqual(demoConfig(configured), { config: configured, generatedAdminToken: undefined });
    assert.match(demoBanner('http://127.0.0.1:3000', 'tok', true, true), /admin token.*: tok/);
  });
});
