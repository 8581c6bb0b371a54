import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * The price-history rule of EXTENSIONS.md section 11 on real trades, on the manual clock: a point
 * per bucket labelled with its start, valued at the last trade in it, empty buckets carrying the
 * previous price forward from the token's first trade, token 2 = 1 − token 1. The book stays
 * two-sided throughout with a midpoint of 0.55, which must change no point.
 *
 * Minute by minute from the first trade's minute m (token 1 prices), m five minutes past a half hour:
 *   m−3   a bid at 0.40 and an ask at 0.70 rest (no trade: no point yet)
 *   m     a MINT at 0.6, then a TRANSFER at 0.65 in the same instant (the later one counts)
 *   m+5   a MINT taken on token 2 at 0.6 (token 1 at 0.4)
 *   m+8   a MINT taken on token 1 at 0.7
 *   m+20  now
 */
describe('market data: price history is the last trade per bucket, carried forward', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let firstMinuteSec: number;
  const history = (query: string) => get(server.api(`/price-history?${query}`));
  const advanceMinutes = (minutes: number) => post(server.api('/admin/clock'), { advanceMs: minutes * 60_000 }, server.adminHeaders);
  const at = (minute: number, p: string) => ({ t: firstMinuteSec + minute * 60, p });
  const mirror = (points: { t: number; p: string }[]) => points.map(({ t, p }) => ({ t, p: String(Math.round((1 - Number(p)) * 100) / 100) }));

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const [alice, bob, carol, dave, erin] = await Promise.all([
      newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }),
    ]);
    const aligned = (Math.floor(server.ctx.clock.nowMs() / 1_800_000) + 1) * 1_800_000 + 120_000;
    assert.equal((await post(server.api('/admin/clock'), { now: new Date(aligned).toISOString() }, server.adminHeaders)).status, 200);
    await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '5' });
    await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.3', size: '5' });
    await advanceMinutes(3);
    firstMinuteSec = Math.floor(server.ctx.clock.nowMs() / 60_000) * 60;
    await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '10' });
    await placeOrder(server, dave, { tokenId: market.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    await placeOrder(server, dave, { tokenId: market.tokenId1, side: 'BUY', price: '0.65', size: '2' });
    // Carol sells tokens the MINT just gave her: on a chain she holds them once it is mined.
    await server.ctx.trading.engine.settle();
    assert.equal((await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'SELL', price: '0.65', size: '2' })).status, 200);
    await advanceMinutes(5);
    await placeOrder(server, erin, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '2', orderType: 'FAK' });
    await advanceMinutes(3);
    await placeOrder(server, erin, { tokenId: market.tokenId1, side: 'BUY', price: '0.7', size: '1', orderType: 'FAK' });
    await server.ctx.trading.engine.settle();
    await advanceMinutes(12);
  });
  after(async () => {
    await server?.close();
  });

  /** Minutes m to m+20 of token 1. */
  const minutes = () => Array.from({ length: 21 }, (_, i) => at(i, i < 5 ? '0.65' : i < 8 ? '0.4' : '0.7'));

  it('made the trades the scenario says, on a book left two-sided at 0.40 / 0.70', async () => {
    const trades = (await get(server.api(`/trades?market=${market.id}`))).body.data.map((t: any) => [t.matchedAt - firstMinuteSec, t.tokenId === market.tokenId1 ? 1 : 2, t.price]);
    // Newest first; the two trades of minute m share a second, so their order there is by id.
    assert.deepEqual(trades.slice(0, 2), [[480, 1, '0.7'], [300, 2, '0.6']]);
    assert.deepEqual(trades.slice(2).sort(), [[0, 1, '0.65'], [0, 2, '0.4']]);
    const book = (await get(server.api(`/order-book/book?token_id=${market.tokenId1}`))).body;
    assert.deepEqual([book.bids[0].price, book.asks[0].price], ['0.4', '0.7']);
  });

  it('fidelity 1: the last trade of each minute, carried over the empty ones, nothing before the first trade', async () => {
    const one = (await history(`token=${market.tokenId1}&interval=1H&fidelity=1&limit=100`)).body;
    assert.deepEqual(one.data, minutes());
    assert.equal(one.total, 21);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1H&fidelity=1&limit=100`)).body.data, mirror(minutes()));
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=ALL&fidelity=1&limit=100`)).body.data, minutes());
  });

  it('fidelity 5 (one scan) and 6 (a probe per bucket): the last trade in each bucket, else the previous value', async () => {
    // 5-minute buckets start at m: [m, m+5) ends on the 0.65 transfer, [m+5, m+10) on the 0.7 mint.
    const five = [at(0, '0.65'), at(5, '0.7'), at(10, '0.7'), at(15, '0.7'), at(20, '0.7')];
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1H&fidelity=5&limit=100`)).body.data, five);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1H&fidelity=5&limit=100`)).body.data, mirror(five));
    // 6-minute buckets start 5 minutes before m: [m−5, m+1) holds the first trades, [m+1, m+7) the token-2 one.
    const six = [at(-5, '0.65'), at(1, '0.4'), at(7, '0.7'), at(13, '0.7'), at(19, '0.7')];
    assert.deepEqual((await history(`token=${market.tokenId1}&interval=1D&fidelity=6&limit=100`)).body.data, six);
    assert.deepEqual((await history(`token=${market.tokenId2}&interval=1D&fidelity=6&limit=100`)).body.data, mirror(six));
    const byPrice = (await history(`token=${market.tokenId1}&interval=1D&fidelity=6&limit=2&sortBy=price&order=ASC`)).body.data;
    assert.deepEqual(byPrice, [at(1, '0.4'), at(-5, '0.65')]);
  });

  it('pages in both directions carry the price in from before the page, on both read paths', async () => {
    for (const [token, fidelity, expected] of [
      [market.tokenId1, 1, minutes()], [market.tokenId2, 1, mirror(minutes())],
      [market.tokenId1, 6, [at(-5, '0.65'), at(1, '0.4'), at(7, '0.7'), at(13, '0.7'), at(19, '0.7')]],
    ] as const) {
      const limit = fidelity === 1 ? 4 : 2;
      const ascending = [];
      const descending = [];
      for (let page = 1; page <= Math.ceil(expected.length / limit); page++) {
        ascending.push(...(await history(`token=${token}&interval=1D&fidelity=${fidelity}&limit=${limit}&page=${page}`)).body.data);
        descending.push(...(await history(`token=${token}&interval=1D&fidelity=${fidelity}&limit=${limit}&page=${page}&order=DESC`)).body.data);
      }
      assert.deepEqual(ascending, expected);
      assert.deepEqual(descending, [...expected].reverse());
      assert.deepEqual((await history(`token=${token}&interval=1D&fidelity=${fidelity}&limit=${limit}&page=${Math.ceil(expected.length / limit) + 1}`)).body.data, []);
    }
  });

  it('a window that starts after the last trade carries that trade in; ALL still starts at the first trade', async () => {
    await advanceMinutes(120);
    const window = (await history(`token=${market.tokenId1}&interval=1H&fidelity=5&limit=100`)).body.data;
    assert.equal(window.length, 13);
    assert.ok(window.every((point: any) => point.p === '0.7'));
    const all = (await history(`token=${market.tokenId1}&interval=ALL&fidelity=1&limit=3`)).body;
    assert.deepEqual(all.data, minutes().slice(0, 3));
    assert.equal(all.total, 141);
  });

  it('leaves the ledger consistent', async () => {
    await expectAuditClean(server);
  });
});
