import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, newTrader, orderBody, placeOrder, type Trader } from '../helpers/trader.ts';

describe('POST /orders: entry rules, signatures, idempotency', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let market: { id: string; tokenId1: string; tokenId2: string };

  before(async () => {
    server = await startTestServer();
    const published = await createPublishedEvent(server, { markets: 1 });
    market = published.markets[0]!;
    alice = await newTrader(server, { fund: '1000' });
    bob = await newTrader(server, { fund: '1000' });
  });
  after(() => closeAudited(server));

  it('accepts a signed BUY, answers the Order, and shows it in the book of both tokens', async () => {
    const response = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.40', size: '10' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const order = response.body;
    assert.equal(order.status, 'PENDING');
    assert.equal(order.market, market.id);
    assert.equal(order.owner, alice.userId);
    assert.equal(order.outcome, 'Yes');
    assert.equal(order.price, 0.4);
    assert.equal(order.amount, 10);
    assert.equal(order.matchedAmount, 0);
    assert.equal(order.priceUint, '400000');
    assert.equal(order.maker.toLowerCase(), alice.proxyWallet.toLowerCase());
    assert.match(order.hash, /^0x[0-9a-f]{64}$/);

    const book1 = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    assert.deepEqual(book1.bids, [{ price: '0.4', size: '10', numOrders: 1 }]);
    assert.deepEqual(book1.asks, []);
    assert.equal(book1.market, market.id);
    assert.equal(book1.asset_id, market.tokenId1);
    assert.equal(book1.tick_size, '0.01');
    const book2 = (await get(server.api(`/order-book/book?token_id=${market.tokenId2}`))).body;
    assert.deepEqual(book2.asks, [{ price: '0.6', size: '10', numOrders: 1 }]);
    assert.deepEqual(book2.bids, []);

    const balance = (await alice.call('GET', '/account/balance')).body;
    assert.equal(balance.collateral.balance, '1000');
    assert.equal(balance.collateral.locked, '4');
    assert.equal(balance.collateral.available, '996');
  });

  it('accepts an unsigned order on the API key alone, with the defaults of EXTENSIONS.md', async () => {
    const response = await placeOrder(server, alice, { tokenId: market.tokenId2, side: 'BUY', price: '0.3', size: '5', signed: false });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.signature, '');
    assert.equal(response.body.signatureType, 1);
    assert.equal(response.body.nonce, 0);
    assert.equal(response.body.signer.toLowerCase(), alice.address.toLowerCase());
    assert.equal(response.body.outcome, 'No');
  });

  it('takes an EOA-signed order (signatureType 0): the EOA is its maker, the proxy wallet its funds', async () => {
    const response = await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.05', size: '10', signatureType: 0 });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.signatureType, 0);
    assert.equal(response.body.maker.toLowerCase(), bob.address.toLowerCase());
    assert.equal((await bob.call('GET', '/account/balance')).body.collateral.locked, '0.5');
    assert.equal((await bob.call('POST', `/orders/${response.body.id}/cancel`)).status, 200);
  });

  it('refuses a signature that does not recover to the signer', async () => {
    const body = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1' });
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = { ...body, signature: await stranger.signMessage({ message: 'not an order' }) };
    expectError(await alice.call('POST', '/orders', forged), 400, 'INVALID_SIGNATURE');
  });

  it("refuses an order signed for someone else's wallet", async () => {
    const body = await orderBody(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1' });
    expectError(await alice.call('POST', '/orders', body), 400, 'INVALID_SIGNATURE');
  });

  it('names the rule an order breaks', async () => {
    const offTick = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.123', size: '10', signed: false });
    const response = await alice.call('POST', '/orders', offTick);
    expectError(response, 400, 'ORDER_PRICE_NOT_ON_TICK');
    assert.match(response.body.message, /0\.12 and 0\.13/);
    const postOnlyFok = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1', orderType: 'FOK', postOnly: true, signed: false });
    expectError(await alice.call('POST', '/orders', postOnlyFok), 400, 'ORDER_POST_ONLY_NOT_GTC');
    const expired = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1', expiration: 1000, signed: false });
    expectError(await alice.call('POST', '/orders', expired), 400, 'ORDER_EXPIRED');
  });

  it('refuses a token of no tradable market and a malformed body with 400', async () => {
    const unknown = await orderBody(server, alice, { tokenId: '123456789', side: 'BUY', price: '0.1', size: '1', signed: false });
    expectError(await alice.call('POST', '/orders', unknown), 400, 'MARKET_NOT_TRADABLE');
    // A token id that is no number names no token at all: the field breaks a rule.
    for (const tokenId of ['x', '12ab', '-5', '1.5', '9'.repeat(79)]) expectError(await alice.call('POST', '/orders', { ...unknown, tokenId }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/orders', { salt: 'x' }), 400, 'VALIDATION_FAILED');
    const badSide = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1', signed: false });
    expectError(await alice.call('POST', '/orders', { ...badSide, side: 2 }), 400, 'VALIDATION_FAILED');
  });

  it('refuses an order the available balance cannot cover, and nothing changes', async () => {
    const poor = await newTrader(server, { fund: '1' });
    const response = await placeOrder(server, poor, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' });
    expectError(response, 400, 'INSUFFICIENT_BALANCE');
    const balance = (await poor.call('GET', '/account/balance')).body;
    assert.equal(balance.collateral.locked, '0');
    const sell = await placeOrder(server, poor, { tokenId: market.tokenId1, side: 'SELL', price: '0.5', size: '1' });
    expectError(sell, 400, 'INSUFFICIENT_BALANCE');
  });

  it('uses a hash once, even after the order is cancelled', async () => {
    const body = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.05', size: '1' });
    const first = await alice.call('POST', '/orders', body);
    assert.equal(first.status, 200);
    assert.equal((await alice.call('POST', `/orders/${first.body.id}/cancel`)).status, 200);
    expectError(await alice.call('POST', '/orders', body), 409, 'CONFLICT');
  });

  it('answers a repeated idempotencyKey with the original order, and 409 for a different order', async () => {
    const key = randomUUID();
    const body = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.06', size: '1', idempotencyKey: key });
    const first = await alice.call('POST', '/orders', body);
    const again = await alice.call('POST', '/orders', body);
    assert.equal(first.status, 200);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    const other = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.07', size: '1', idempotencyKey: key });
    expectError(await alice.call('POST', '/orders', other), 409, 'CONFLICT');
  });

  it('needs API-key HMAC: no credentials and a JWT are 401', async () => {
    const body = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.1', size: '1' });
    expectError(await post(server.api('/orders'), body), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/orders'), body, { authorization: `Bearer ${alice.session.token}` }), 401, 'UNAUTHORIZED');
  });

  it('batch: per-item results in request order, 1 to 50 items', async () => {
    const good = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.02', size: '1' });
    const offTick = await orderBody(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.021', size: '1', signed: false });
    const response = await alice.call('POST', '/orders/batch', { orders: [good, { nonsense: true }, offTick] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const [first, second, third] = response.body.results;
    assert.equal(first.index, 0);
    assert.equal(first.success, true);
    assert.match(first.orderId, /^[0-9a-f-]{36}$/);
    assert.deepEqual([second.index, second.success], [1, false]);
    assert.match(second.error, /VALIDATION_FAILED/);
    assert.deepEqual([third.index, third.success], [2, false]);
    assert.match(third.error, /ORDER_PRICE_NOT_ON_TICK/);
    expectError(await alice.call('POST', '/orders/batch', { orders: [] }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/orders/batch', { orders: Array.from({ length: 51 }, () => good) }), 400, 'VALIDATION_FAILED');
  });

  it('batch: the engine takes the items in request order, whichever signature check ends first', async () => {
    // 10 of collateral, two orders reserving 6 each: the first in the request rests, the second is
    // refused, though the first one's signature is checked on another thread and the second has none.
    const carol = await newTrader(server, { fund: '10' });
    const signed = await orderBody(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    const unsigned = await orderBody(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10', signed: false });
    const response = await carol.call('POST', '/orders/batch', { orders: [signed, unsigned, signed] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const [first, second, third] = response.body.results;
    assert.equal(first.success, true, JSON.stringify(first));
    assert.deepEqual([second.success, third.success], [false, false]);
    assert.match(second.error, /INSUFFICIENT_BALANCE/);
    // The same order twice: the first in the request is the one placed.
    assert.match(third.error, /CONFLICT/);
  });

  it('GET /order-book/book and last-trade-price: 400 without token_id, 404 for unknown tokens', async () => {
    expectError(await get(server.api('/order-book/book')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/order-book/book?token_id=abc')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/order-book/book?token_id=42')), 404, 'NOT_FOUND');
    expectError(await get(server.api(`/order-book/last-trade-price?token_id=${market.tokenId1}`)), 404, 'NOT_FOUND');
  });
});
