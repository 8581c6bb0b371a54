import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

/** GET /price-history over two trades made through the engine, three minutes apart. */
describe('market data: price history', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let trade1Sec: number;
  let trade2Sec: number;
  let nowSec: number;
  const history = (query: string) => get(server.api(`/price-history?${query}`));

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const [alice, bob] = await Promise.all([newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' })]);
    const advance = (advanceMs: number) => post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
    // A MINT: Bob takes token 2 at 0.4, so token 1 trades at 0.6.
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    await server.ctx.trading.engine.settle();
    await advance(180_000);
    // A TRANSFER of token 1 at 0.7.
    await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.7', size: '2' });
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.7', size: '2' });
    await server.ctx.trading.engine.settle();
    await advance(120_000);
    const trades = (await get(server.api(`/trades?market=${market.id}`))).body.data;
    [trade2Sec, trade1Sec] = trades.map((t: any) => t.matchedAt);
    nowSec = Math.floor(server.ctx.clock.nowMs() / 1000);
  });
  after(async () => {
    await server?.close();
  });

  /** Expected points: one per minute bucket from the first trade's bucket to now's. */
  function expected(token: 1 | 2): { t: number; p: string }[] {
    const points = [];
    for (let t = Math.floor(trade1Sec / 60) * 60; t <= Math.floor(nowSec / 60) * 60; t += 60) {
      const p1 = t + 60 > trade2Sec ? 0.7 : 0.6;
      points.push({ t, p: String(token === 1 ? p1 : Math.round((1 - p1) * 10) / 10) });
    }
    return points;
  }

  it('gives a point per bucket from the first trade, carried forward; token 2 mirrors token 1', async () => {
    const { body } = await history(`token=${market.tokenId1}&interval=1H&fidelity=1&limit=100`);
    assert.deepEqual(body.data, expected(1));
    assert.deepEqual([body.page, body.limit, body.total, body.pageCount, body.totalCapped], [1, 100, expected(1).length, 1, false]);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1H&fidelity=1&limit=100`)).body.data, expected(2));
  });

  it('pages, sorts by timestamp or price in either order, and leaves totals out on request', async () => {
    const all = expected(1);
    const page2 = (await history(`token=${market.tokenId1}&interval=1D&fidelity=1&limit=2&page=2`)).body;
    assert.deepEqual(page2.data, all.slice(2, 4));
    assert.equal(page2.pageCount, Math.ceil(all.length / 2));
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1D&fidelity=1&limit=2&order=DESC`)).body.data, [...all].reverse().slice(0, 2));
    const byPrice = (await history(`token=${market.tokenId1}&interval=ALL&fidelity=1&limit=100&sortBy=price&order=DESC`)).body.data;
    assert.deepEqual(byPrice.map((p: any) => p.p), [...all].sort((a, b) => Number(b.p) - Number(a.p) || b.t - a.t).map((p) => p.p));
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1H&fidelity=1&page=99`)).body.data, []);
    const untotalled = (await history(`token=${market.tokenId1}&interval=1H&fidelity=1&total=false`)).body;
    assert.deepEqual([untotalled.total, untotalled.pageCount, 'totalCapped' in untotalled], [null, null, false]);
    assert.equal((await history(`token=${market.tokenId1}&interval=1H&fidelity=1`)).body.data.length, Math.min(10, all.length));
  });

  it('clamps fidelity to the interval maximum unless strictFidelity=true', async () => {
    const clamped = (await history(`token=${market.tokenId1}&interval=1H&fidelity=60`)).body.data;
    assert.ok(clamped.every((p: any) => p.t % 300 === 0));
    assert.equal(clamped.at(-1).p, '0.7');
    expectError(await history(`token=${market.tokenId1}&interval=1H&fidelity=6&strictFidelity=true`), 400, 'VALIDATION_FAILED');
    assert.equal((await history(`token=${market.tokenId1}&interval=1H&fidelity=5&strictFidelity=true`)).status, 200);
    const daily = (await history(`token=${market.tokenId1}&interval=1M&fidelity=1440`)).body.data;
    assert.ok(daily.length >= 1 && daily.length <= 2 && daily.every((p: any) => p.t % 86_400 === 0));
  });

  it('rejects bad input with 400 and an unknown token with 404', async () => {
    const token = `token=${market.tokenId1}`;
    for (const query of [`${token}&fidelity=1`, `${token}&interval=2H&fidelity=1`, `${token}&interval=1H`, `${token}&interval=1H&fidelity=0`, `${token}&interval=ALL&fidelity=1441`,
      `${token}&interval=1H&fidelity=1&limit=1441`, `${token}&interval=1H&fidelity=1&page=0`, `${token}&interval=1H&fidelity=1&sortBy=size`, `${token}&interval=1H&fidelity=1&order=UP`,
      'interval=1H&fidelity=1', 'token=abc&interval=1H&fidelity=1']) {
      expectError(await history(query), 400, 'VALIDATION_FAILED');
    }
    expectError(await history('token=123456789&interval=1H&fidelity=1'), 404, 'NOT_FOUND');
  });
});
