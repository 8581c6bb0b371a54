import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { useDurableStore } from '../helpers/database.ts';
import { freePort } from '../helpers/process-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { apiKeyHandshake, connectInbox } from '../realtime/helpers.ts';

/**
 * After a restart the engine holds the open orders it loaded without their signed fields, and
 * reads those from the store the first time a batch answers or announces the order
 * (src/engine/order-details.ts). Every answer and every `order-update` must still carry the whole
 * order, exactly as it was answered when placed.
 */
describe('orders loaded at start are answered and announced whole', () => {
  const durable = useDurableStore('pmx-restart-');

  it('on a cancel, a cancel by market, a fill of the resting order and in the /user feed', { timeout: 60_000 }, async () => {
    // The restarted server listens where the first did: the traders' clients are bound to its URL.
    durable.env.PORT = String(await freePort());
    let server: TestServer = await startTestServer(durable.env);
    let maker: Trader;
    let taker: Trader;
    let tokenId1: string;
    let tokenId2: string;
    let marketId: string;
    const placed = new Map<string, Record<string, unknown>>();
    try {
      const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
      tokenId1 = market.tokenId1;
      tokenId2 = market.tokenId2;
      marketId = market.id;
      maker = await newTrader(server, { fund: '1000' });
      taker = await newTrader(server, { fund: '1000' });
      for (const price of ['0.40', '0.41', '0.42']) {
        const answer = await placeOrder(server, maker, { tokenId: tokenId1, side: 'BUY', price, size: '5', idempotencyKey: randomUUID() });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        placed.set(price, answer.body);
      }
    } finally {
      await server.close();
    }

    server = await startTestServer(durable.env);
    const inbox = await connectInbox(server.url, '/user', await apiKeyHandshake(server, maker.creds));
    try {
      const unchanged = (order: Record<string, unknown>, before: Record<string, unknown>, status: string, matchedAmount: number) => {
        assert.deepEqual({ ...order, status: undefined, matchedAmount: undefined }, { ...before, status: undefined, matchedAmount: undefined });
        assert.equal(order.status, status);
        assert.equal(order.matchedAmount, matchedAmount);
      };

      const cancelled = await maker.call('POST', `/orders/${placed.get('0.40')!.id}/cancel`);
      assert.equal(cancelled.status, 200);
      unchanged(cancelled.body, placed.get('0.40')!, 'CANCELLED', 0);

      // A buy of the other outcome at the complement meets the resting 0.42 bid (a MINT).
      const fill = await placeOrder(server, taker, { tokenId: tokenId2, side: 'BUY', price: '0.58', size: '2' });
      assert.equal(fill.status, 200, JSON.stringify(fill.body));
      assert.equal(fill.body.matchedAmount, 2);

      const byMarket = await maker.call('POST', '/orders/cancel', { market: marketId });
      assert.equal(byMarket.status, 200, JSON.stringify(byMarket.body));
      const answered = new Map((byMarket.body as Record<string, unknown>[]).map((order) => [order.id, order]));
      assert.equal(answered.size, 2);
      unchanged(answered.get(placed.get('0.41')!.id)!, placed.get('0.41')!, 'CANCELLED', 0);
      unchanged(answered.get(placed.get('0.42')!.id)!, placed.get('0.42')!, 'CANCELLED', 2);

      const updates: { type: string; order: Record<string, unknown> }[] = [];
      while (updates.length < 4) {
        const message = await inbox.next();
        if (message.event === 'order-update') updates.push(message.payload as (typeof updates)[number]);
      }
      const of = (price: string) => updates.filter((u) => u.order.id === placed.get(price)!.id);
      assert.deepEqual(of('0.40').map((u) => u.type), ['CANCELLATION']);
      unchanged(of('0.40')[0]!.order, placed.get('0.40')!, 'CANCELLED', 0);
      assert.deepEqual(of('0.42').map((u) => u.type), ['UPDATE', 'CANCELLATION']);
      unchanged(of('0.42')[0]!.order, placed.get('0.42')!, 'EXECUTING', 2);
      unchanged(of('0.42')[1]!.order, placed.get('0.42')!, 'CANCELLED', 2);
      assert.deepEqual(of('0.41').map((u) => u.type), ['CANCELLATION']);
      unchanged(of('0.41')[0]!.order, placed.get('0.41')!, 'CANCELLED', 0);
    } finally {
      inbox.socket.close();
      await server.close();
    }
  });
});
