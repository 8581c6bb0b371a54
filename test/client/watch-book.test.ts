import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { BookWatchError, type BookWatcher, type ExchangeClient, type UserMessage } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, publishedMarkets, traderClient } from './helpers.ts';

describe('watchBook and the user feed against a real server', () => {
  let server: TestServer;
  let alice: ExchangeClient;
  let bob: ExchangeClient;
  let market: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];
  let watcher: BookWatcher;

  /** Waits until the socket book of a token has the REST book's hash, then compares levels too. */
  async function expectInSync(tokenId: string): Promise<void> {
    const rest = await alice.book.get(tokenId);
    const local = await watcher.until(tokenId, (book) => book.hash() === rest.hash);
    assert.deepEqual(local.bids, rest.bids.map(({ price, size }) => ({ price, size })));
    assert.deepEqual(local.asks, rest.asks.map(({ price, size }) => ({ price, size })));
  }

  before(async () => {
    server = await startTestServer();
    market = (await publishedMarkets(adminClient(server))).markets[0]!;
    alice = await traderClient(server, '100000');
    bob = await traderClient(server, '100000');
    watcher = alice.watchBook([market.tokenId1, market.tokenId2]);
    await watcher.ready();
  });
  after(async () => {
    watcher.close();
    await server.close();
  });

  it('keeps both tokens of a market equal to REST through resting orders, trades and cancels', async () => {
    await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.40', size: '10' });
    await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.45', size: '5' });
    await bob.orders.place({ tokenId: market.tokenId2, side: 'BUY', price: '0.50', size: '20' });
    await expectInSync(market.tokenId1);
    await expectInSync(market.tokenId2);
    assert.deepEqual(watcher.bestBid(market.tokenId1), { price: '0.45', size: '5' });
    assert.deepEqual(watcher.bestAsk(market.tokenId1), { price: '0.5', size: '20' });
    // A taker SELL of token 1 fills the 0.45 bid and part of the 0.40 one.
    await bob.markets.split(market.id, '10');
    await bob.orders.place({ tokenId: market.tokenId1, side: 'SELL', price: '0.40', size: '8', type: 'FAK' });
    await server.ctx.trading.engine.settle();
    await expectInSync(market.tokenId1);
    assert.deepEqual(watcher.depth(market.tokenId1, 1)?.bids, [{ price: '0.4', size: '7' }]);
    await alice.orders.cancelAll();
    await bob.orders.cancelAll();
    await expectInSync(market.tokenId1);
    await expectInSync(market.tokenId2);
    assert.equal(watcher.resyncCount, 0);
  });

  it('resynchronises from a fresh snapshot when its local book stops matching the hashes', async () => {
    (watcher.book(market.tokenId1) as unknown as { bidLevels: Map<string, string> }).bidLevels.set('0.11', '999');
    const resynced = new Promise<string>((resolve) => watcher.on('resync', (_id, reason) => resolve(reason)));
    await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.2', size: '1' });
    assert.equal(await resynced, 'mismatch');
    await expectInSync(market.tokenId1);
    await alice.orders.cancelAll();
    await expectInSync(market.tokenId1);
  });

  it('equals the REST book after any random order flow', async () => {
    const spec = fc.record({
      trader: fc.boolean(),
      token: fc.boolean(),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      ticks: fc.integer({ min: 30, max: 70 }),
      size: fc.integer({ min: 1, max: 20 }),
    });
    await fc.assert(fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 8 }), async (flow) => {
      for (const step of flow) {
        const client = step.trader ? alice : bob;
        if (step.side === 'SELL') await client.markets.split(market.id, String(step.size));
        await client.orders.place({ tokenId: step.token ? market.tokenId1 : market.tokenId2, side: step.side, price: (step.ticks / 100).toFixed(2), size: String(step.size) });
      }
      await server.ctx.trading.engine.settle();
      await expectInSync(market.tokenId1);
      await expectInSync(market.tokenId2);
    }), { numRuns: 5 });
    await alice.orders.cancelAll();
    await bob.orders.cancelAll();
    await expectInSync(market.tokenId1);
  });

  // Before the fix ready() never settled here: the test's own timeout turns that hang into a failure.
  it('rejects ready() naming the token when the server refuses its subscription', { timeout: 60_000 }, async () => {
    const unknownToken = '4242424242';
    const refused = alice.watchBook([market.tokenId1, unknownToken]);
    try {
      const error = await refused.ready().then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof BookWatchError, String(error));
      assert.equal(error.code, 'NOT_FOUND');
      assert.deepEqual(error.tokenIds, [unknownToken]);
      const untilUnknown = await refused.until(unknownToken, () => true).then(() => undefined, (e: unknown) => e);
      assert.ok(untilUnknown instanceof BookWatchError && untilUnknown.code === 'NOT_FOUND', 'a later wait on a refused token is refused at once');
    } finally {
      refused.close();
    }
  });

  it('rejects until() with TIMEOUT when the condition does not come in time', { timeout: 60_000 }, async () => {
    const error = await watcher.until(market.tokenId1, () => false, { timeoutMs: 1 }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof BookWatchError, String(error));
    assert.equal(error.code, 'TIMEOUT');
    assert.deepEqual(error.tokenIds, [market.tokenId1]);
    assert.ok(await watcher.until(market.tokenId1, () => true, { timeoutMs: Infinity }));
  });

  it('streams order-update and trade-update messages on the /user feed', async () => {
    const feed = alice.user();
    await feed.connected();
    const seen: UserMessage[] = [];
    const collecting = (async () => {
      for await (const message of feed) {
        seen.push(message);
        if (message.type === 'trade-update') break;
      }
    })();
    await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '2' });
    await bob.orders.place({ tokenId: market.tokenId2, side: 'BUY', price: '0.4', size: '2' });
    await collecting;
    assert.equal(seen[0]!.type, 'order-update');
    assert.ok(seen.some((m) => m.type === 'trade-update'));
  });
});
