import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExchangeClient, UserMessage } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, publishedMarkets, thrown, traderClient } from './helpers.ts';

/** The SDK's market makers' safety (EXTENSIONS.md section 15) against an in-process server with the manual clock. */
describe("SDK: heartbeat, MMP and the user feed's safety messages", () => {
  let server: TestServer;
  let maker: ExchangeClient;
  let taker: ExchangeClient;
  let market: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];

  before(async () => {
    server = await startTestServer();
    market = (await publishedMarkets(adminClient(server))).markets[0]!;
    maker = await traderClient(server, '1000');
    taker = await traderClient(server, '1000');
  });
  after(async () => {
    await server.close();
  });

  it('sends and stops the heartbeat; sets, lists and removes MMP with typed errors', async () => {
    const beat = await maker.heartbeat.send(20_000);
    assert.equal(Date.parse(beat.expiresAt), server.ctx.clock.nowMs() + 20_000);
    await maker.heartbeat.stop();
    const invalid = await thrown(maker.heartbeat.send(1_000));
    assert.deepEqual([invalid.status, invalid.code], [400, 'VALIDATION_FAILED']);
    const setting = await maker.mmp.set({ scope: { marketId: market.id }, windowMs: 5_000, maxQuantity: '2', frozenMs: 1_000 });
    assert.deepEqual(await maker.mmp.list(), [setting]);
    await maker.mmp.remove({ marketId: market.id });
    assert.deepEqual(await maker.mmp.list(), []);
    const missing = await thrown(maker.mmp.remove({ marketId: market.id }));
    assert.deepEqual([missing.status, missing.code], [404, 'NOT_FOUND']);
  });

  it('the user feed yields the MMP_TRIGGERED cancellations and mmp-triggered; a frozen place is a typed 409', async () => {
    await maker.markets.split(market.id, '10');
    await maker.mmp.set({ scope: { eventId: market.eventId }, windowMs: 5_000, maxQuantity: '2', frozenMs: 1_000 });
    const feed = maker.user();
    await feed.connected();
    const quotes = [await maker.orders.place({ tokenId: market.tokenId1, side: 'SELL', price: '0.6', size: '2' }), await maker.orders.place({ tokenId: market.tokenId1, side: 'SELL', price: '0.7', size: '2' })];
    await taker.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '2', type: 'FAK' });
    const seen: UserMessage[] = [];
    for await (const message of feed) {
      seen.push(message);
      if (message.type === 'mmp-triggered') break;
    }
    feed.close();
    const cancellation = seen.find((m) => m.type === 'order-update' && m.data.type === 'CANCELLATION');
    assert.ok(cancellation?.type === 'order-update');
    assert.deepEqual([cancellation.data.order.id, cancellation.data.reason], [quotes[1]!.id, 'MMP_TRIGGERED']);
    const trip = seen.at(-1)!;
    assert.ok(trip.type === 'mmp-triggered');
    assert.deepEqual(trip.data.scope, { eventId: market.eventId });
    const frozen = await thrown(maker.orders.place({ tokenId: market.tokenId2, side: 'SELL', price: '0.6', size: '1' }));
    assert.deepEqual([frozen.status, frozen.code], [409, 'MMP_FROZEN']);
  });
});
