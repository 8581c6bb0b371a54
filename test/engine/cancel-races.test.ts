import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { expectError } from '../helpers/http.ts';
import { callerOf, orderBody, placeOrder, type Trader } from '../helpers/trader.ts';
import { useTwoTraders } from '../helpers/two-traders.ts';

/**
 * A cancel that loses to another command on the same order in the same engine batch is refused
 * naming the status the order has now, not the one it had when the batch began (the store is
 * written only when the batch commits).
 */
describe('cancels that lose a race inside one engine batch', () => {
  const world = useTwoTraders();

  const rest = async (trader: Trader) => {
    const placed = await placeOrder(world.server, trader, { tokenId: world.event.markets[0]!.tokenId1, side: 'BUY', price: '0.5', size: '5' });
    assert.equal(placed.status, 200);
    assert.equal(placed.body.status, 'PENDING');
    return placed.body.id as string;
  };

  it('a second cancel of one order in one batch-cancel request says CANCELLED', async () => {
    const { alice } = world;
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
    const { server, alice, bob, event } = world;
    const orderId = await rest(alice);
    const taker = await orderBody(server, bob, { tokenId: event.markets[0]!.tokenId2, side: 'BUY', price: '0.5', size: '5', signed: false });
    const bobCaller = callerOf(bob);
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
