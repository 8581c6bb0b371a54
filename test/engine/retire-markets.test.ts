import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { resolveMarket } from '../helpers/resolution.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * A question's settlement resolves its market in the same journal record: the market stops
 * trading, and its resting and speed-bumped orders are cancelled (src/engine/state/oracle-commands.ts).
 */
describe('engine: resolution retires a market', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('a refused transition changes nothing; a settlement cancels resting and speed-bumped orders and drops the market', async () => {
    const engine = server.ctx.trading.engine;
    // A dispute window of 1 s, well inside the 5 s speed bump: the resolution finds the order still held back.
    const market = (await createPublishedEvent(server, { speedBumpDelayMs: 5_000, liveness: 1 })).markets[0]!;
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

    const refused = await engine.oracle(market.id, { kind: 'decide', outcome: 'YES' }, { endMs: null, proposalBondBaseUnits: 0n, rewardBaseUnits: 0n, livenessMs: 1000 });
    assert.equal(refused.ok, false);
    assert.equal(engine.reads.hasMarket(market.id), true);
    assert.equal((await maker.call('GET', `/orders/${resting.body.id}`)).body.status, 'PENDING');

    await resolveMarket(server, market.id, 'NO', 1_000);
    unsubscribe();
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
