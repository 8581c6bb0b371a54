import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { expectError } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, orderBody, placeOrder, type Trader } from '../helpers/trader.ts';

/**
 * A cancel that loses to another command on the same order in the same engine batch is refused
 * naming the status the order has now, not the one it had when the batch began (the store is
 * written only when the batch commits).
 */
describe('cancels that lose a race inside one engine batch', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let event: PublishedEvent;

  before(async () => {
    server = await startTestServer();
    event = await createPublishedEvent(server, { markets: 1 });
    alice = await newTrader(server, { fund: '100' });
    bob = await newTrader(server, { fund: '100' });
  });
  after(async () => {
    await expectAuditClean(server);
    await server.close();
  });

  const rest = async (trader: Trader) => {
    const placed = await placeOrder(server, trader, { tokenId: event.markets[0]!.tokenId1, side: 'BUY', price: '0.5', size: '5' });
    assert.equal(placed.status, 200);
    assert.equal(placed.body.status, 'PENDING');
    return placed.body.id as string;
  };

  it('a second cancel of one order in one batch-cancel request says CANCELLED', async () => {
    const orderId = await rest(alice);
    // Both cancels of one request go to the engine together, so they share one batch.
    const response = await alice.call('POST', '/orders/batch-cancel', { orderIds: [orderId, orderId] });
    assert.equal(response.status, 200);
    const [first, second] = response.body.results;
    assert.equal(first.success, true);
    assert.equal(second.success, false);
    assert.match(second.error, /the order is CANCELLED/);
  });

  it('a cancel that loses to a fill in the same batch says EXECUTED', async () => {
    const orderId = await rest(alice);
    const taker = await orderBody(server, bob, { tokenId: event.markets[0]!.tokenId2, side: 'BUY', price: '0.5', size: '5', signed: false });
    const bobCaller = { userId: bob.userId, address: bob.address, proxyWallet: bob.proxyWallet, via: 'apiKey' as const };
    const { orderEntry, orderCancels } = server.ctx.trading;
    // Unsigned orders and cancels reach the engine queue synchronously: both land in one batch, the fill first.
    const [placed, cancelled] = await Promise.all([
      orderEntry.submit(bobCaller, taker as unknown as CreateOrderRequest),
      orderCancels.cancelOne(alice.userId, orderId).then(() => undefined, (error: unknown) => error),
    ]);
    assert.equal(placed.ok ? placed.order.status : placed.error.message, 'EXECUTED');
    assert.ok(cancelled instanceof Error);
    assert.match(cancelled.message, /the order is EXECUTED/);
    expectError(await alice.call('POST', `/orders/${orderId}/cancel`), 400, 'ORDER_NOT_OPEN');
  });
});
