import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * Price history from trades and per-minute midpoint samples, on the manual clock: the sampler runs
 * when POST /admin/clock moves time, and fills in every minute the clock jumped over.
 *
 * Minute by minute from the first trade's minute m (token 1):
 *   m     a MINT at 0.6; then a bid at 0.40 and an ask at 0.70 rest (midpoint 0.55)
 *   m+1…5 samples of 0.55 (the clock jumps 5 minutes)
 *   m+5   the ask is cancelled: the book is one-sided, so no samples
 *   m+8   a MINT at 0.4 against the bid (token 2 bought at 0.6)
 */
describe('market data: price history with midpoint samples', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let firstMinuteSec: number;
  const history = (query: string) => get(server.api(`/price-history?${query}`));
  const advanceMinutes = (minutes: number) => post(server.api('/admin/clock'), { advanceMs: minutes * 60_000 }, server.adminHeaders);

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const [alice, bob, carol] = await Promise.all([newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' })]);
    // Five minutes past a half hour, so the wider buckets below are known by hand.
    const aligned = (Math.floor(server.ctx.clock.nowMs() / 1_800_000) + 1) * 1_800_000 + 300_000;
    assert.equal((await post(server.api('/admin/clock'), { now: new Date(aligned).toISOString() }, server.adminHeaders)).status, 200);
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    firstMinuteSec = Math.floor(server.ctx.clock.nowMs() / 60_000) * 60;
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '5' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.3', size: '5' });
    await advanceMinutes(5);
    assert.equal((await bob.call('POST', '/orders/cancel', { market: market.id })).status, 200);
    await advanceMinutes(3);
    await placeOrder(server, carol, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '2', orderType: 'FAK' });
    await server.ctx.trading.engine.settle();
    await advanceMinutes(2);
  });
  after(async () => {
    await server?.close();
  });

  const token1 = ['0.6', '0.55', '0.55', '0.55', '0.55', '0.55', '0.55', '0.55', '0.4', '0.4', '0.4'];
  const token2 = ['0.4', '0.45', '0.45', '0.45', '0.45', '0.45', '0.45', '0.45', '0.6', '0.6', '0.6'];
  const points = (prices: string[]) => prices.map((p, i) => ({ t: firstMinuteSec + i * 60, p }));

  it('values a bucket without trades at its last midpoint sample, and carries it over unsampled minutes', async () => {
    const one = (await history(`token=${market.tokenId1}&interval=1H&fidelity=1&limit=100`)).body;
    assert.deepEqual(one.data, points(token1));
    assert.equal(one.total, token1.length);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1H&fidelity=1&limit=100`)).body.data, points(token2));
  });

  it('carries the same value into every page, whether it came from a sample or a trade', async () => {
    for (const [token, prices] of [[market.tokenId1, token1], [market.tokenId2, token2]] as const) {
      const pages = [];
      for (let page = 1; page <= 4; page++) pages.push(...(await history(`token=${token}&interval=1H&fidelity=1&limit=3&page=${page}`)).body.data);
      assert.deepEqual(pages, points(prices));
      const descending = (await history(`token=${token}&interval=1H&fidelity=1&limit=4&page=2&order=DESC`)).body.data;
      assert.deepEqual(descending, points(prices).reverse().slice(4, 8));
    }
  });

  it('gives wider buckets the last trade in them, else their last sample, else the previous value', async () => {
    const at = (minute: number, p: string) => ({ t: firstMinuteSec + minute * 60, p });
    // 5 minutes: [m, m+4] holds the 0.6 trade (it beats the samples after it), [m+5, m+9] the 0.4 one, then it carries.
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1H&fidelity=5&limit=100`)).body.data, [at(0, '0.6'), at(5, '0.4'), at(10, '0.4')]);
    // 6 minutes (wide enough to be read by index probes): [m-5, m] the trade, [m+1, m+6] only samples, [m+7, m+12] the trade.
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1D&fidelity=6&limit=100`)).body.data, [at(-5, '0.6'), at(1, '0.55'), at(7, '0.4')]);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1D&fidelity=6&limit=100`)).body.data, [at(-5, '0.4'), at(1, '0.45'), at(7, '0.6')]);
    const byPrice = (await history(`token=${market.tokenId1}&interval=1H&fidelity=1&limit=3&sortBy=price&order=ASC`)).body.data;
    assert.deepEqual(byPrice, points(token1).sort((a, b) => Number(a.p) - Number(b.p) || a.t - b.t).slice(0, 3));
  });

  it('leaves the ledger consistent', async () => {
    await expectAuditClean(server);
  });
});
