import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { restartedInPlaceStore, useDurableStore } from '../helpers/database.ts';
import { bookFromOrders, openOrders, publishedBook } from '../helpers/books.ts';
import { startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';
import { expectBuiltAuditClean } from '../helpers/build.ts';

describe('recovery: kill -9 in the middle of order flow loses nothing acknowledged', () => {
  const durable = useDurableStore('pmx-recovery-', restartedInPlaceStore);

  it('keeps acknowledged orders and fills, rebuilds the books exactly, and the audit passes', { timeout: 180_000 }, async () => {
    let server: ProcessServer = await startProcessServer(durable.env);
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const traders = [await newTrader(server, { fund: '100000' }), await newTrader(server, { fund: '100000' })];
    const bodies = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const trader = traders[i % 2]!;
        const buyYes = i % 4 < 2;
        const price = (0.4 + ((i * 7) % 20) / 100).toFixed(2);
        return orderBody(server, trader, { tokenId: buyYes ? market.tokenId1 : market.tokenId2, side: 'BUY', price, size: String(1 + (i % 5)), signed: i % 3 === 0 }).then((body) => ({ trader, body }));
      }),
    );

    const acknowledged: { trader: Trader; id: string; matchedAmount: number }[] = [];
    const refusals: string[] = [];
    let crashed: Promise<void> | undefined;
    await Promise.all(
      bodies.map(async ({ trader, body }) => {
        const response = await trader.call('POST', '/orders', body).catch(() => undefined);
        // A kill -9 answers nothing: every answer that arrives is an acknowledgement (signed or not).
        if (response !== undefined && response.status !== 200) refusals.push(`${response.status} ${JSON.stringify(response.body)}`);
        if (response?.status === 200) acknowledged.push({ trader, id: response.body.id, matchedAmount: response.body.matchedAmount });
        if (acknowledged.length === 60 && !crashed) crashed = server.crash();
      }),
    );
    await crashed;
    assert.deepEqual(refusals, [], 'every order answered before the crash was acknowledged');
    assert.ok(acknowledged.length >= 60, `only ${acknowledged.length} orders were acknowledged before the crash`);

    server = await startProcessServer(durable.env, server.port);
    try {
      for (const ack of acknowledged) {
        const order = await ack.trader.call('GET', `/orders/${ack.id}`);
        assert.equal(order.status, 200, `acknowledged order ${ack.id} is gone after the crash`);
        assert.ok(order.body.matchedAmount >= ack.matchedAmount, `order ${ack.id} lost fills`);
      }
      const open = [...(await openOrders(traders[0]!)), ...(await openOrders(traders[1]!))];
      assert.deepEqual(await publishedBook(server, market.tokenId1), bookFromOrders(open, market.tokenId1));
    } finally {
      await server.stop();
    }

    expectBuiltAuditClean(durable.env);
  });
});
