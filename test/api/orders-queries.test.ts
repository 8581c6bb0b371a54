import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

describe('reading and cancelling orders', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let single: PublishedEvent;
  let multi: PublishedEvent;
  const ids: string[] = [];

  before(async () => {
    server = await startTestServer();
    single = await createPublishedEvent(server, { markets: 1, name: 'Rain in Lisbon' });
    await post(server.api('/admin/clock'), { advanceMs: 1000 }, server.adminHeaders);
    multi = await createPublishedEvent(server, { markets: 2, name: 'Election winner' });
    alice = await newTrader(server, { fund: '1000' });
    bob = await newTrader(server, { fund: '1000' });
    const market = single.markets[0]!;
    // Five resting bids of growing size, one on each of five prices.
    for (let i = 1; i <= 5; i++) {
      const response = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: `0.${i}`, size: String(i) });
      ids.push(response.body.id);
    }
    await placeOrder(server, alice, { tokenId: multi.markets[1]!.tokenId2, side: 'BUY', price: '0.2', size: '1' });
  });
  after(() => closeAudited(server));

  it('GET /orders: the caller’s orders with marketInfo, newest first by default', async () => {
    const response = await alice.call('GET', '/orders');
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 6);
    const [newest] = response.body;
    assert.equal(newest.market, multi.markets[1]!.id);
    assert.equal(newest.outcome, 'No');
    assert.deepEqual(
      { title: newest.marketInfo.title, outcomeIndex: newest.marketInfo.outcomeIndex, eventId: newest.marketInfo.eventId, isMultiMarket: newest.marketInfo.isMultiMarket, isSeriesLayout: newest.marketInfo.isSeriesLayout },
      { title: multi.markets[1]!.name, outcomeIndex: 1, eventId: multi.event.id, isMultiMarket: true, isSeriesLayout: false },
    );
    assert.equal(newest.marketInfo.slug, multi.markets[1]!.slug);
    assert.equal((await bob.call('GET', '/orders')).body.length, 0, 'another user sees none of them');
  });

  it('GET /orders: filters and sorts, and refuses status=CANCELLED', async () => {
    const bySize = (await alice.call('GET', `/orders?market=${single.markets[0]!.id}&sortBy=amount&order=ASC`)).body;
    assert.deepEqual(bySize.map((o: { amount: number }) => o.amount), [1, 2, 3, 4, 5]);
    const byName = (await alice.call('GET', '/orders?marketName=rain%20IN')).body;
    assert.equal(byName.length, 5);
    assert.deepEqual((await alice.call('GET', `/orders?market=${randomUUID()}`)).body, []);
    assert.equal((await alice.call('GET', `/orders?maker=${alice.proxyWallet.toLowerCase()}`)).body.length, 6);
    assert.equal((await alice.call('GET', '/orders?status=EXECUTED')).body.length, 0);
    expectError(await alice.call('GET', '/orders?status=CANCELLED'), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders?sortBy=price'), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders?market=not-a-uuid'), 400, 'VALIDATION_FAILED');
  });

  it('GET /orders/paginated: pages, bounded total, and a cursor that walks every row once', async () => {
    const first = (await alice.call('GET', '/orders/paginated?limit=2&total=true')).body;
    assert.deepEqual([first.first, first.last, first.limit, first.total, first.totalCapped, first.hasMore], [1, 2, 2, 6, false, true]);
    assert.equal(typeof first.nextCursor, 'string');
    const seen = first.data.map((o: { id: string }) => o.id);
    let cursor = first.nextCursor;
    let page = first;
    while (cursor) {
      page = (await alice.call('GET', `/orders/paginated?limit=2&cursor=${encodeURIComponent(cursor)}`)).body;
      seen.push(...page.data.map((o: { id: string }) => o.id));
      cursor = page.nextCursor;
    }
    assert.deepEqual([page.first, page.last, page.hasMore], [5, 6, false]);
    assert.equal(new Set(seen).size, 6);
    const byPage = (await alice.call('GET', '/orders/paginated?limit=2&page=3')).body;
    assert.deepEqual([byPage.first, byPage.last, byPage.total, byPage.nextCursor], [5, 6, null, null]);
    expectError(await alice.call('GET', `/orders/paginated?limit=2&sortBy=amount&cursor=${encodeURIComponent(first.nextCursor)}`), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders/paginated?cursor=forged.cursor'), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders/paginated?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders/paginated?page=0'), 400, 'VALIDATION_FAILED');
    // An offset beyond a SQL bigint was a 500.
    expectError(await alice.call('GET', '/orders/paginated?page=100000000000000000&limit=100'), 400, 'VALIDATION_FAILED');
    assert.equal((await alice.call('GET', '/orders/paginated')).body.limit, 30);
  });

  it('GET /orders/{id}: the owner reads it; anyone else gets 404', async () => {
    const own = await alice.call('GET', `/orders/${ids[0]}`);
    assert.equal(own.status, 200);
    assert.equal(own.body.id, ids[0]);
    expectError(await bob.call('GET', `/orders/${ids[0]}`), 404, 'NOT_FOUND');
    expectError(await alice.call('GET', `/orders/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await alice.call('GET', '/orders/123'), 400, 'VALIDATION_FAILED');
  });

  it('POST /orders/{id}/cancel: frees the reservation; 403 for another user, 400 when no longer open', async () => {
    expectError(await bob.call('POST', `/orders/${ids[0]}/cancel`), 403, 'FORBIDDEN');
    const before = (await alice.call('GET', '/account/balance')).body.collateral.locked;
    const cancelled = await alice.call('POST', `/orders/${ids[0]}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'CANCELLED');
    const afterLocked = (await alice.call('GET', '/account/balance')).body.collateral.locked;
    assert.equal(Math.round((Number(before) - Number(afterLocked)) * 1e6), 100_000);
    expectError(await alice.call('POST', `/orders/${ids[0]}/cancel`), 400, 'ORDER_NOT_OPEN');
    expectError(await alice.call('POST', `/orders/${randomUUID()}/cancel`), 404, 'NOT_FOUND');
    const cancelledList = (await alice.call('GET', '/orders/paginated?status=CANCELLED')).body;
    assert.deepEqual(cancelledList.data.map((o: { id: string }) => o.id), [ids[0]]);
  });

  it('POST /orders/batch-cancel: per-id results in request order, 1 to 50 ids', async () => {
    const unknown = randomUUID();
    const response = await alice.call('POST', '/orders/batch-cancel', { orderIds: [ids[1], unknown, ids[1]] });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.results.map((r: { orderId: string; success: boolean }) => [r.orderId, r.success]), [[ids[1], true], [unknown, false], [ids[1], false]]);
    // Each error names its code as a batch create's items do: unknown, then closed already.
    assert.match(response.body.results[1].error, /^NOT_FOUND: order not found$/);
    assert.match(response.body.results[2].error, /^ORDER_NOT_OPEN: the order is CANCELLED and can no longer be cancelled$/);
    expectError(await alice.call('POST', '/orders/batch-cancel', { orderIds: [] }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/orders/batch-cancel', { orderIds: Array.from({ length: 51 }, () => randomUUID()) }), 400, 'VALIDATION_FAILED');
  });

  it('POST /orders/cancel: every open order of the caller in one market; 404 for an unknown market', async () => {
    const market = single.markets[0]!;
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.1', size: '1' });
    const response = await alice.call('POST', '/orders/cancel', { market: market.id });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.map((o: { id: string }) => o.id).sort(), [ids[2], ids[3], ids[4]].sort());
    assert.ok(response.body.every((o: { status: string }) => o.status === 'CANCELLED'));
    const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    assert.deepEqual(book.bids, [], "only bob's order is left, on the ask side of token 1");
    assert.equal(book.asks.length, 1);
    expectError(await alice.call('POST', '/orders/cancel', { market: randomUUID() }), 404, 'NOT_FOUND');
  });

  it('POST /orders/cancel-event and /orders/cancel-all report the markets they cleared', async () => {
    const event = await alice.call('POST', '/orders/cancel-event', { eventId: multi.event.id });
    assert.equal(event.status, 200);
    assert.deepEqual(event.body.clearedMarkets.sort(), multi.markets.map((m) => m.id).sort());
    assert.equal(event.body.failedMarkets, undefined);
    expectError(await alice.call('POST', '/orders/cancel-event', { eventId: randomUUID() }), 404, 'NOT_FOUND');
    const all = await bob.call('POST', '/orders/cancel-all');
    assert.deepEqual(all.body, { clearedMarkets: [single.markets[0]!.id] });
    assert.deepEqual((await bob.call('POST', '/orders/cancel-all')).body, { clearedMarkets: [] });
  });

  it('GET /orders/events: events with active markets and their order-book markets, newest first', async () => {
    const response = await alice.call('GET', '/orders/events');
    assert.equal(response.status, 200);
    assert.deepEqual([response.body.page, response.body.limit, response.body.total, response.body.totalCapped], [1, 30, 2, false]);
    const [newest] = response.body.data;
    assert.equal(newest.id, multi.event.id);
    assert.equal(newest.single, false);
    assert.deepEqual(newest.marketsView.map((m: { tokenId1: string }) => m.tokenId1), multi.markets.map((m) => m.tokenId1));
    assert.deepEqual(Object.keys(newest.marketsView[0]).sort(), ['id', 'name', 'orderFeeRateBps', 'outcome1', 'outcome2', 'passiveOrderFeeRateBps', 'tokenId1', 'tokenId2']);
    expectError(await alice.call('GET', '/orders/events?limit=0'), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('GET', '/orders/events?page=100000000000000000&limit=100'), 400, 'VALIDATION_FAILED');
  });

  it('every order route needs API-key HMAC', async () => {
    for (const [method, path] of [['GET', '/orders'], ['GET', '/orders/paginated'], ['GET', `/orders/${ids[0]}`], ['GET', '/orders/events'], ['POST', '/orders/cancel-all'], ['POST', `/orders/${ids[0]}/cancel`]] as const) {
      const response = method === 'GET' ? await get(server.api(path)) : await post(server.api(path));
      expectError(response, 401, 'UNAUTHORIZED');
      const withJwt = method === 'GET' ? await get(server.api(path), { authorization: `Bearer ${alice.session.token}` }) : await post(server.api(path), undefined, { authorization: `Bearer ${alice.session.token}` });
      expectError(withJwt, 401, 'UNAUTHORIZED');
    }
  });
});
