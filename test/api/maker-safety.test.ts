import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearer } from '../helpers/auth-client.ts';
import { expectError, post, request } from '../helpers/http.ts';
import { newTrader, orderBody, placeOrder } from '../helpers/trader.ts';
import { useTwoTraders } from '../helpers/two-traders.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/** EXTENSIONS.md section 15 through HTTP, on one in-process node with the manual clock. */
describe("market makers' safety: routes, validation, heartbeat expiry and MMP", () => {
  const world = useTwoTraders({ fund: '1000', split: '100' });
  const market = () => world.event.markets[0]!;
  const advance = async (advanceMs: number) => assert.equal((await post(world.server.api('/admin/clock'), { advanceMs }, world.server.adminHeaders)).status, 200);
  const statusOf = async (orderId: string) => (await world.alice.call('GET', `/orders/${orderId}`)).body.status;

  it('refuses every malformed heartbeat with the error body, and credentials that are missing, bad or a session token', async () => {
    const { alice, server } = world;
    for (const body of [{ timeoutMs: 4_999 }, { timeoutMs: 60_001 }, { timeoutMs: '10000' }, { timeoutMs: 7_000.5 }, { timeoutMs: 10_000, extra: 1 }, [], 'x']) {
      expectError(await alice.call('POST', '/heartbeat', body), 400, 'VALIDATION_FAILED');
    }
    // The body is optional (a union with null): a sent one is told what would pass, not that it is not null.
    assert.equal((await alice.call('POST', '/heartbeat', { timeoutMs: 100 })).body.message, 'body/timeoutMs must be >= 5000');
    expectError(await post(server.api('/heartbeat'), { timeoutMs: 10_000 }), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/heartbeat'), {}, bearer(alice.session.token)), 401, 'UNAUTHORIZED');
    expectError(await request('DELETE', server.api('/heartbeat')), 401, 'UNAUTHORIZED');
    expectError(await request('GET', server.api('/mmp')), 401, 'UNAUTHORIZED');
    expectError(await request('PUT', server.api('/mmp'), { body: { scope: { marketId: market().id }, windowMs: 1000, maxFills: 1, frozenMs: 0 } }), 401, 'UNAUTHORIZED');
  });

  it('arms with the default 10 s, refreshes, and disarms (204)', async () => {
    const { alice, server } = world;
    const armed = await alice.call('POST', '/heartbeat');
    assert.equal(armed.status, 200);
    assert.equal(armed.body.armed, true);
    assert.equal(Date.parse(armed.body.expiresAt), server.ctx.clock.nowMs() + 10_000);
    const refreshed = await alice.call('POST', '/heartbeat', { timeoutMs: 60_000 });
    assert.equal(Date.parse(refreshed.body.expiresAt), server.ctx.clock.nowMs() + 60_000);
    assert.equal((await alice.call('DELETE', '/heartbeat')).status, 204);
    assert.equal((await alice.call('DELETE', '/heartbeat')).status, 204);
  });

  it('cancels the open orders of an expired key with reason HEARTBEAT_EXPIRED, and only that key’s', async () => {
    const { alice, bob, server } = world;
    const mine = await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'SELL', price: '0.9', size: '1' });
    const theirs = await placeOrder(server, bob, { tokenId: market().tokenId1, side: 'SELL', price: '0.91', size: '1' });
    assert.equal(mine.status, 200);
    const updates: unknown[] = [];
    const stop = server.ctx.events.subscribe('order-update', (update) => updates.push(update));
    assert.equal((await alice.call('POST', '/heartbeat', { timeoutMs: 5_000 })).status, 200);
    await advance(4_999);
    assert.equal(await statusOf(mine.body.id), 'PENDING');
    await advance(1);
    assert.equal(await statusOf(mine.body.id), 'CANCELLED');
    assert.equal((await bob.call('GET', `/orders/${theirs.body.id}`)).body.status, 'PENDING');
    stop();
    assert.deepEqual(updates.map((u) => (u as { reason?: string }).reason), ['HEARTBEAT_EXPIRED']);
    await bob.call('POST', `/orders/${theirs.body.id}/cancel`);
  });

  it('refuses every malformed MMP setting with 4xx and the error body', async () => {
    const { alice } = world;
    const valid = { scope: { marketId: market().id }, windowMs: 1_000, maxFills: 3, frozenMs: 5_000 };
    const bad: unknown[] = [
      {}, { ...valid, scope: {} }, { ...valid, scope: { marketId: market().id, eventId: world.event.event.id } }, { ...valid, scope: { marketId: 'nope' } },
      { ...valid, windowMs: 0 }, { ...valid, windowMs: 3_600_001 }, { ...valid, frozenMs: -1 }, { ...valid, maxFills: 0 }, { ...valid, maxFills: 1.5 },
      { ...valid, maxQuantity: '0' }, { ...valid, maxNotionalUsd: '-1' }, { ...valid, maxQuantity: '0.0000001' }, { ...valid, maxNotionalUsd: 'ten' }, { ...valid, maxQuantity: 5 }, { ...valid, extra: true },
      { scope: valid.scope, windowMs: 1_000, frozenMs: 0 }, null, [],
    ];
    for (const body of bad) expectError(await alice.call('PUT', '/mmp', body), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('PUT', '/mmp', { ...valid, scope: { marketId: UNKNOWN } }), 404, 'NOT_FOUND');
    expectError(await alice.call('PUT', '/mmp', { ...valid, scope: { eventId: UNKNOWN } }), 404, 'NOT_FOUND');
    expectError(await alice.call('DELETE', '/mmp', { scope: { eventId: UNKNOWN } }), 404, 'NOT_FOUND');
    expectError(await alice.call('DELETE', '/mmp', { scope: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('DELETE', '/mmp'), 400, 'VALIDATION_FAILED');
  });

  it('sets, lists and removes settings per API key: another key neither sees nor removes them', async () => {
    const { alice, bob } = world;
    const put = await alice.call('PUT', '/mmp', { scope: { eventId: world.event.event.id }, windowMs: 2_000, maxQuantity: '12.5', maxNotionalUsd: '100', frozenMs: 0 });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { scope: { eventId: world.event.event.id }, windowMs: 2_000, maxQuantity: '12.5', maxNotionalUsd: '100', frozenMs: 0, frozenUntil: null });
    assert.deepEqual((await alice.call('GET', '/mmp')).body, [put.body]);
    assert.deepEqual((await bob.call('GET', '/mmp')).body, []);
    const otherKey = await newTrader(world.server);
    expectError(await otherKey.call('DELETE', '/mmp', { scope: { eventId: world.event.event.id } }), 404, 'NOT_FOUND');
    assert.equal((await alice.call('DELETE', '/mmp', { scope: { eventId: world.event.event.id } })).status, 204);
    assert.deepEqual((await alice.call('GET', '/mmp')).body, []);
  });

  it('maxFills 3: four takers in one batch fill exactly 3; the maker’s orders go with MMP_TRIGGERED; new orders are MMP_FROZEN until frozenMs passed', async () => {
    const { alice, bob, server } = world;
    const set = await alice.call('PUT', '/mmp', { scope: { marketId: market().id }, windowMs: 10_000, maxFills: 3, frozenMs: 5_000 });
    assert.equal(set.status, 200);
    const quotes = [];
    for (const price of ['0.5', '0.51', '0.52', '0.53', '0.54']) quotes.push((await placeOrder(server, alice, { tokenId: market().tokenId1, side: 'SELL', price, size: '1' })).body.id);
    const trips: unknown[] = [];
    const stop = server.ctx.events.subscribe('mmp-triggered', (trip) => trips.push(trip));
    const takers = await Promise.all([1, 2, 3, 4].map(() => orderBody(server, bob, { tokenId: market().tokenId1, side: 'BUY', price: '0.6', size: '1', orderType: 'FAK' })));
    const batch = await bob.call('POST', '/orders/batch', { orders: takers });
    assert.equal(batch.status, 200);
    const filled = await Promise.all(batch.body.results.map(async (r: { orderId: string }) => (await bob.call('GET', `/orders/${r.orderId}`)).body.status));
    assert.deepEqual(filled.sort(), ['CANCELLED', 'EXECUTED', 'EXECUTED', 'EXECUTED']);
    assert.deepEqual(await Promise.all(quotes.map(statusOf)), ['EXECUTED', 'EXECUTED', 'EXECUTED', 'CANCELLED', 'CANCELLED']);
    stop();
    assert.equal(trips.length, 1);
    const listed = (await alice.call('GET', '/mmp')).body[0];
    assert.equal(Date.parse(listed.frozenUntil), server.ctx.clock.nowMs() + 5_000);

    const frozen = await placeOrder(server, alice, { tokenId: market().tokenId2, side: 'SELL', price: '0.5', size: '1' });
    expectError(frozen, 409, 'MMP_FROZEN');
    await advance(5_000);
    const thawed = await placeOrder(server, alice, { tokenId: market().tokenId2, side: 'SELL', price: '0.9', size: '1' });
    assert.equal(thawed.status, 200);
    assert.equal((await alice.call('GET', '/mmp')).body[0].frozenUntil, null);
    await alice.call('POST', `/orders/${thawed.body.id}/cancel`);
    await alice.call('DELETE', '/mmp', { scope: { marketId: market().id } });
  });
});
