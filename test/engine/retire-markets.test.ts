import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { updateMarket } from '../../src/store/catalogue-markets-repository.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/** MatchingEngine.retireMarkets: resolution work and the cancellation of open orders commit together. */
describe('engine: retireMarkets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('a failing work changes nothing; a successful one cancels resting and speed-bumped orders and drops the market', async () => {
    const engine = server.ctx.trading.engine;
    const market = (await createPublishedEvent(server, { speedBumpDelayMs: 5_000 })).markets[0]!;
    const other = (await createPublishedEvent(server, {})).markets[0]!;
    const maker = await newTrader(server, { fund: '100' });
    const taker = await newTrader(server, { fund: '100' });
    const resting = await placeOrder(server, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' });
    // Crosses the resting order (a MINT), so the speed bump holds it back.
    const delayed = await placeOrder(server, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '10' });
    assert.equal(delayed.body.status, 'PENDING', JSON.stringify(delayed.body));
    const elsewhere = await placeOrder(server, maker, { tokenId: other.tokenId1, side: 'BUY', price: '0.5', size: '10' });
    assert.equal((await taker.call('GET', '/account/balance')).body.collateral.locked, '5');
    const updates: string[] = [];
    const unsubscribe = server.ctx.events.subscribe('order-update', (u) => updates.push(`${u.type}:${(u.order as { id: string }).id}`));

    await assert.rejects(engine.retireMarkets(async () => {
      throw new Error('resolution failed');
    }), /resolution failed/);
    assert.equal(engine.reads.hasMarket(market.id), true);
    assert.equal((await maker.call('GET', `/orders/${resting.body.id}`)).body.status, 'PENDING');

    const result = await engine.retireMarkets(async (tx) => {
      await updateMarket(tx, market.id, { status: 'RESOLVED', is_resolved: true });
      return { marketIds: [market.id], result: 'done' };
    });
    unsubscribe();
    assert.equal(result, 'done');
    assert.equal(engine.reads.hasMarket(market.id), false);
    assert.equal(engine.reads.orderBook(market.tokenId1), undefined);
    for (const [trader, order] of [[maker, resting], [taker, delayed]] as const) {
      assert.equal((await trader.call('GET', `/orders/${order.body.id}`)).body.status, 'CANCELLED');
    }
    assert.deepEqual(updates.sort(), [`CANCELLATION:${delayed.body.id}`, `CANCELLATION:${resting.body.id}`].sort());
    assert.equal((await maker.call('GET', `/orders/${elsewhere.body.id}`)).body.status, 'PENDING');
    assert.equal((await maker.call('GET', '/account/balance')).body.collateral.locked, '5');
    assert.equal((await taker.call('GET', '/account/balance')).body.collateral.locked, '0');
    // A catalogue refresh never brings a resolved market back.
    await engine.refreshMarket(market.id);
    assert.equal(engine.reads.hasMarket(market.id), false);
    await expectAuditClean(server);
  });
});
