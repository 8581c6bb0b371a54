import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

interface Market {
  id: string;
  tokenId1: string;
  tokenId2: string;
}

async function balances(trader: Trader, market: Market) {
  const body = (await trader.call('GET', '/account/balance')).body;
  const token = (id: string) => body.tokens.find((t: { tokenId: string }) => t.tokenId === id) ?? { balance: '0', locked: '0', available: '0' };
  return { collateral: body.collateral, yes: token(market.tokenId1), no: token(market.tokenId2) };
}

describe('matching through the API: two funded users trade every kind of order on both tokens', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let market: Market;
  const settle = () => server.ctx.trading.engine.settle();

  before(async () => {
    server = await startTestServer();
  });
  beforeEach(async () => {
    market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    alice = await newTrader(server, { fund: '1000' });
    bob = await newTrader(server, { fund: '1000' });
  });
  after(async () => {
    await server.close();
  });

  it('two BUYs of different tokens MINT a complete set at the resting price', async () => {
    const resting = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    const taking = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    assert.equal(taking.status, 200, JSON.stringify(taking.body));
    assert.equal(taking.body.status, 'EXECUTED');
    assert.equal(taking.body.matchedAmount, 10);
    await settle();
    const a = await balances(alice, market);
    const b = await balances(bob, market);
    assert.deepEqual([a.collateral.balance, a.collateral.locked, a.yes.balance], ['994', '0', '10']);
    // Bob bought token 2 at 1 − 0.6 = 0.4, the resting order's price, not his 0.45 limit.
    assert.deepEqual([b.collateral.balance, b.collateral.locked, b.no.balance], ['996', '0', '10']);
    const order = (await alice.call('GET', `/orders/${resting.body.id}`)).body;
    assert.equal(order.status, 'EXECUTED');
    const last1 = (await get(server.api(`/order-book/last-trade-price?token_id=${market.tokenId1}`))).body;
    const last2 = (await get(server.api(`/order-book/last-trade-price?token_id=${market.tokenId2}`))).body;
    assert.deepEqual(last2, { price: '0.4', side: 'buy' });
    assert.deepEqual(last1, { price: '0.6', side: 'sell' });
    await expectAuditClean(server);
  });

  it('a SELL and a BUY of one token TRANSFER; two SELLs of different tokens MERGE', async () => {
    assert.equal((await alice.call('POST', `/markets/${market.id}/split`, { amount: '10' })).status, 200);
    assert.equal((await bob.call('POST', `/markets/${market.id}/split`, { amount: '10' })).status, 200);
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.7', size: '4' });
    const buy = await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.75', size: '4' });
    assert.equal(buy.body.status, 'EXECUTED');
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.5', size: '2' });
    const merge = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'SELL', price: '0.5', size: '2' });
    assert.equal(merge.body.status, 'EXECUTED');
    await settle();
    const a = await balances(alice, market);
    const b = await balances(bob, market);
    // Alice: 990 after the split, +2.8 from the transfer, +1 from the merge.
    assert.deepEqual([a.collateral.balance, a.yes.balance, a.no.balance], ['993.8', '4', '10']);
    // Bob: 990 after the split, −2.8 for the transfer, +1 from the merge.
    assert.deepEqual([b.collateral.balance, b.yes.balance, b.no.balance], ['988.2', '14', '8']);
    await expectAuditClean(server);
  });

  it('FOK fills completely or not at all; FAK fills what crosses and cancels the rest', async () => {
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '2' });
    const fok = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '5', orderType: 'FOK' });
    assert.equal(fok.status, 200);
    assert.deepEqual([fok.body.status, fok.body.matchedAmount], ['CANCELLED', 0]);
    const fak = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '5', orderType: 'FAK' });
    assert.deepEqual([fak.body.status, fak.body.matchedAmount], ['CANCELLED', 2]);
    await settle();
    const b = await balances(bob, market);
    assert.deepEqual([b.collateral.balance, b.collateral.locked, b.no.balance], ['999', '0', '2']);
    const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    assert.deepEqual([book.bids, book.asks], [[], []]);
    await expectAuditClean(server);
  });

  it('a post-only order that would cross is REJECTED with 400 and recorded', async () => {
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '2' });
    const response = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '2', postOnly: true });
    expectError(response, 400, 'POST_ONLY_WOULD_CROSS');
    const rejected = (await bob.call('GET', '/orders/paginated?status=REJECTED')).body;
    assert.equal(rejected.data.length, 1);
    assert.equal(rejected.data[0].status, 'REJECTED');
    assert.equal((await balances(bob, market)).collateral.locked, '0');
    const resting = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.4', size: '2', postOnly: true });
    assert.equal(resting.body.status, 'PENDING');
  });

  it("self-trade prevention cancels the caller's resting order and goes on", async () => {
    const own = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '2' });
    const mine = await placeOrder(server, alice, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '2' });
    assert.equal(mine.body.status, 'PENDING');
    assert.equal((await alice.call('GET', `/orders/${own.body.id}`)).body.status, 'CANCELLED');
    const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId2}`))).body;
    assert.deepEqual(book.bids, [{ price: '0.5', size: '2', numOrders: 1 }]);
    assert.deepEqual(book.asks, []);
    await expectAuditClean(server);
  });

  it('an order expires at its expiration and frees its reservation', async () => {
    const nowSec = Math.floor((await get(server.api('/exchange'))).body.serverTime / 1000);
    const order = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '2', expiration: nowSec + 60 });
    assert.equal((await balances(alice, market)).collateral.locked, '1');
    await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders);
    assert.equal((await alice.call('GET', `/orders/${order.body.id}`)).body.status, 'CANCELLED');
    assert.equal((await balances(alice, market)).collateral.locked, '0');
    const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    assert.deepEqual(book.bids, []);
  });

  it('maker and taker pay their fee rates on min(p, 1 − p) × size, rounded down, in collateral', async () => {
    const fees = (await createPublishedEvent(server, { markets: 1, orderFeeRateBps: 200, passiveOrderFeeRateBps: 100 })).markets[0]!;
    assert.equal((await bob.call('POST', `/markets/${fees.id}/split`, { amount: '100' })).status, 200);
    const maker = await placeOrder(server, alice, { tokenId: fees.tokenId1, side: 'BUY', price: '0.4', size: '100', feeRateBps: 200 });
    assert.equal(maker.status, 200, JSON.stringify(maker.body));
    // The reservation covers the cost and the highest fee the order could pay (taker rate).
    assert.equal((await balances(alice, fees)).collateral.locked, '40.8');
    const taker = await placeOrder(server, bob, { tokenId: fees.tokenId1, side: 'SELL', price: '0.4', size: '100', feeRateBps: 200 });
    assert.equal(taker.body.status, 'EXECUTED');
    await settle();
    const a = await balances(alice, fees);
    const b = await balances(bob, fees);
    assert.deepEqual([a.collateral.balance, a.collateral.locked, a.yes.balance], ['959.6', '0', '100']);
    assert.deepEqual([b.collateral.balance, b.yes.balance, b.no.balance], ['939.2', '0', '100']);
    await expectAuditClean(server);
  });

  it('a speed bump holds a taking order, FIFO, and lets it match once the delay passed', async () => {
    const bumped = (await createPublishedEvent(server, { markets: 1, speedBumpDelayMs: 2000 })).markets[0]!;
    await placeOrder(server, alice, { tokenId: bumped.tokenId1, side: 'BUY', price: '0.5', size: '2' });
    const taking = await placeOrder(server, bob, { tokenId: bumped.tokenId2, side: 'BUY', price: '0.5', size: '2' });
    assert.equal(taking.body.status, 'PENDING');
    const before = (await get(server.api(`/order-book/book?token_id=${bumped.tokenId1}`))).body;
    assert.deepEqual(before.bids, [{ price: '0.5', size: '2', numOrders: 1 }]);
    await post(server.api('/admin/clock'), { advanceMs: 2000 }, server.adminHeaders);
    assert.equal((await bob.call('GET', `/orders/${taking.body.id}`)).body.status, 'EXECUTED');
    await settle();
    await expectAuditClean(server);
  });
});
