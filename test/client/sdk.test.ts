import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, ExchangeError, OrderBuildError, type ExchangeClient } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, publishedMarkets, thrown, traderClient } from './helpers.ts';

describe('SDK against a real server', () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let alice: ExchangeClient;
  let bob: ExchangeClient;
  let market: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];

  before(async () => {
    server = await startTestServer();
    admin = adminClient(server);
    market = (await publishedMarkets(admin, { orderFeeRateBps: 10 })).markets[0]!;
    alice = await traderClient(server, '1000');
    bob = await traderClient(server, '1000');
  });
  after(async () => {
    await server.close();
  });

  it('signs in, lists and revokes API keys, reads and updates the account', async () => {
    const keys = await alice.auth.listApiKeys();
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.apiKey, alice.credentials.apiKey!.apiKey);
    const account = await alice.account.update({ displayName: `alice_${Date.now() % 100000}` });
    assert.match(account.displayName!, /^alice_/);
    const spare = await alice.auth.createApiKey();
    await alice.auth.revokeApiKey(spare.apiKey);
    const revoked = createClient({ baseUrl: server.url, credentials: { apiKey: spare } });
    const error = await thrown(revoked.account.balance());
    assert.deepEqual([error.status, error.code], [401, 'UNAUTHORIZED']);
    alice.useApiKey((await alice.auth.createApiKey()));
  });

  it("withdraws on the wallet's own signature; a spent nonce is a typed error", async () => {
    const carol = await traderClient(server, '10');
    const to = '0x1111111111111111111111111111111111111111';
    const { txHash } = await carol.account.withdraw({ to, amount: '2.5', nonce: 1n });
    assert.match(txHash, /^0x[0-9a-f]{64}$/);
    assert.equal((await carol.account.balance()).collateral.available, '7.5');
    const error = await thrown(carol.account.withdraw({ to, amount: '1', nonce: 1n }));
    assert.deepEqual([error.status, error.code], [400, 'VALIDATION_FAILED']);
  });

  it('reads the catalogue and maps 400 and 404 to typed errors', async () => {
    const page = await alice.events.list({ limit: 100 });
    assert.ok(page.data.some((e) => e.id === market.eventId));
    const all = [];
    for await (const event of alice.events.all({ limit: 1 })) all.push(event.id);
    assert.equal(all.length, page.total);
    assert.equal((await alice.markets.get(market.slug)).id, market.id);
    assert.deepEqual((await alice.markets.list([market.id])).map((m) => m.id), [market.id]);
    const notFound = await thrown(alice.markets.get('no-such-market'));
    assert.deepEqual([notFound.status, notFound.code], [404, 'NOT_FOUND']);
    const invalid = await thrown(alice.events.list({ limit: 1000 }));
    assert.deepEqual([invalid.status, invalid.code], [400, 'VALIDATION_FAILED']);
    const unauthorized = await thrown(createClient({ baseUrl: server.url, credentials: { adminToken: 'wrong' } }).admin.credit(market.id, '1'));
    assert.equal(unauthorized.status, 401);
  });

  it('places, lists and cancels signed orders; splits; reads balances and the book', async () => {
    const order = await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.42', size: '10' });
    assert.deepEqual([order.status, order.price, order.amount, order.priceUint, order.feeRateBps], ['PENDING', 0.42, 10, '420000', 10]);
    assert.notEqual(order.signature, '');
    const book = await alice.book.get(market.tokenId1);
    assert.deepEqual(book.bids.map((l) => [l.price, l.size]), [['0.42', '10']]);
    const balance = await alice.account.balance();
    assert.equal(balance.collateral.balance, '1000');
    assert.ok(balance.collateral.locked.startsWith('4.2'));
    assert.equal((await alice.orders.get(order.id)).marketInfo.outcomeIndex, 0);
    assert.deepEqual((await alice.orders.list({ market: market.id })).map((o) => o.id), [order.id]);
    const open = [];
    for await (const o of alice.orders.all()) open.push(o.id);
    assert.deepEqual(open, [order.id]);
    assert.equal((await alice.orders.cancel(order.id)).status, 'CANCELLED');

    const split = await bob.markets.split(market.id, '5');
    assert.equal(split.amount, '5');
    const tokens = (await bob.account.balance()).tokens.map((t) => [t.tokenId, t.balance]).sort();
    assert.deepEqual(tokens, [[market.tokenId1, '5'], [market.tokenId2, '5']].sort());
  });

  it('places and cancels in batches of 50 with results in order', async () => {
    const specs = Array.from({ length: 60 }, (_, i) => ({ tokenId: market.tokenId1, side: 'BUY' as const, price: i === 55 ? '0.5' : '0.01', size: i === 55 ? '100000' : '1' }));
    const placed = await alice.orders.placeMany(specs);
    assert.deepEqual(placed.map((r) => r.index), specs.map((_, i) => i));
    assert.equal(placed.filter((r) => r.success).length, 59);
    assert.match(placed[55]!.error!, /INSUFFICIENT_BALANCE/);
    const ids = placed.flatMap((r) => (r.orderId ? [r.orderId] : []));
    const cancelled = await alice.orders.cancelMany(ids);
    assert.deepEqual(cancelled.map((r) => r.orderId), ids);
    assert.ok(cancelled.every((r) => r.success));
    assert.deepEqual((await alice.orders.cancelAll()).clearedMarkets, []);
  });

  it('refuses off-tick prices and sizes locally, before sending the order', async () => {
    const refused = async (spec: { price: string; size: string }) => {
      await assert.rejects(alice.orders.build({ tokenId: market.tokenId1, side: 'BUY', ...spec }), (error: unknown) => error instanceof OrderBuildError && error.code.startsWith('ORDER_'));
    };
    await refused({ price: '0.425', size: '10' });
    await refused({ price: '1', size: '10' });
    await refused({ price: '0.4', size: '1.00001' });
    await assert.rejects(alice.orders.build({ tokenId: market.tokenId1, side: 'BUY', price: 0.4 as unknown as string, size: '1' }), OrderBuildError);
  });

  it("follows an operator's tick change: a price on the new tick is placed, one off it refused with the new tick, without forgetMarkets", async () => {
    const { markets: [other] } = await publishedMarkets(admin);
    const order = (price: string) => ({ tokenId: other!.tokenId1, side: 'BUY' as const, price, size: '10' });
    await alice.orders.place(order('0.41'));
    // Finer: the cached tick (0.01) refuses 0.415 locally; the market read afresh takes it.
    await admin.admin.patchMarket(other!.id, { tickSize: '0.001' });
    assert.equal((await alice.orders.place(order('0.415'))).price, 0.415);
    // Coarser: the cached tick (0.001) lets 0.425 through; the server refuses it, and the SDK says so on the tick read afresh.
    await admin.admin.patchMarket(other!.id, { tickSize: '0.01' });
    await assert.rejects(alice.orders.place(order('0.425')), (error: unknown) => error instanceof OrderBuildError && error.code === 'ORDER_PRICE_NOT_ON_TICK' && error.message.includes('0.01'));
    assert.equal((await alice.orders.place(order('0.42'))).price, 0.42);
    await alice.orders.cancelAll();
  });

  it("follows an operator's fee cut; a raise is refused, and so are later orders, until forgetMarkets", async () => {
    const { markets: [other] } = await publishedMarkets(admin, { orderFeeRateBps: 50 });
    const order = { tokenId: other!.tokenId1, side: 'BUY' as const, price: '0.41', size: '10' };
    assert.equal((await alice.orders.place(order)).feeRateBps, 50);
    // A cut: the order signed at the cached 50 is refused, built again at 20 and placed.
    await admin.admin.patchMarket(other!.id, { orderFeeRateBps: 20 });
    assert.equal((await alice.orders.place(order)).feeRateBps, 20);
    // A raise: nothing is signed at 80, and the cache keeps 20, so the next order is refused too.
    await admin.admin.patchMarket(other!.id, { orderFeeRateBps: 80 });
    const raised = (error: unknown) => error instanceof ExchangeError && error.code === 'ORDER_FEE_RATE_MISMATCH'
      && error.message.includes('raised from 20 to 80 bps') && error.message.includes('orders.forgetMarkets() accepts the new terms');
    await assert.rejects(alice.orders.place(order), raised);
    await assert.rejects(alice.orders.place(order), raised);
    // A tick changed too is followed only without the raise: refused before anything is sent.
    await admin.admin.patchMarket(other!.id, { tickSize: '0.001' });
    await assert.rejects(alice.orders.place({ ...order, price: '0.415' }), (error: unknown) => error instanceof OrderBuildError && error.code === 'ORDER_FEE_RATE_MISMATCH' && error.message.includes('raised from 20 to 80 bps'));
    assert.deepEqual((await alice.orders.list({ market: other!.id })).map((o) => o.feeRateBps).sort(), [20, 50]);
    alice.orders.forgetMarkets();
    assert.equal((await alice.orders.place(order)).feeRateBps, 80);
    await alice.orders.cancelAll();
  });

  it('server refusals arrive as ExchangeErrors with the order-rule code', async () => {
    const body = await alice.orders.build({ tokenId: market.tokenId1, side: 'BUY', price: '0.3', size: '1', postOnly: true });
    await bob.orders.place({ tokenId: market.tokenId2, side: 'BUY', price: '0.8', size: '1' });
    const error = await thrown(alice.orders.place(body));
    assert.deepEqual([error.status, error.code], [400, 'POST_ONLY_WOULD_CROSS']);
    await bob.orders.cancelAll();
  });
});
