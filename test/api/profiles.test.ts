import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectTrade, newTrader, type OrderSpec, type Trader } from '../helpers/trader.ts';

const HOUR_MS = 3_600_000;

/**
 * Public profiles over real trading (no fees), by hand:
 * m1: Alice's BUY token1 10 @ 0.4 rests, Bob takes with BUY token2 @ 0.6 (a MINT): Alice 10 for 4.
 *     Two hours on, Carol buys 4 of Alice's at 0.7: 2.8 for 1.6 of basis, realised 1.2.
 *     Two hours on, Carol buys the last 6 at 0.5: 3 for 2.4, realised 0.6; closed, 1.8 in all,
 *     entry 0.40, exit (2.8 + 3) / 10 = 0.58.
 * m2: Alice splits 2: 2 of each for 1 each at 0.5; untraded, so worth 0.5.
 */
describe('public profiles', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let dave: Trader;
  let m1: PublishedMarket;
  let m2: PublishedMarket;
  const advance = (advanceMs: number) => post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
  const profile = (name: string, path: string) => get(server.api(`/profiles/by-name/${encodeURIComponent(name)}/${path}`));
  const ok = async (name: string, path: string) => {
    const { status, body } = await profile(name, path);
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  };

  async function trade(maker: Trader, taker: Trader, makerSpec: OrderSpec, takerSpec: OrderSpec) {
    await expectTrade(server, maker, taker, makerSpec, takerSpec);
    await server.ctx.trading.engine.settle();
  }

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    [alice, bob, carol, dave] = await Promise.all([newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' }), newTrader(server)]);
    for (const [t, displayName] of [[alice, 'Alice_P'], [bob, 'bob-p'], [dave, 'dave_anon']] as const) {
      assert.equal((await t.call('PATCH', '/account', { displayName })).status, 200);
    }
    assert.equal((await dave.call('PATCH', '/account', { anonymous: true })).status, 200);
    [m1, m2] = (await createPublishedEvent(server, { markets: 2 })).markets as [PublishedMarket, PublishedMarket];
    await trade(alice, bob, { tokenId: m1.tokenId1, side: 'BUY', price: '0.4', size: '10' }, { tokenId: m1.tokenId2, side: 'BUY', price: '0.6', size: '10' });
    await advance(2 * HOUR_MS);
    await trade(alice, carol, { tokenId: m1.tokenId1, side: 'SELL', price: '0.7', size: '4' }, { tokenId: m1.tokenId1, side: 'BUY', price: '0.7', size: '4' });
    await advance(2 * HOUR_MS);
    await trade(alice, carol, { tokenId: m1.tokenId1, side: 'SELL', price: '0.5', size: '6' }, { tokenId: m1.tokenId1, side: 'BUY', price: '0.5', size: '6' });
    await server.ctx.trading.engine.settle();
    assert.equal((await alice.call('POST', `/markets/${m2.id}/split`, { amount: '2' })).status, 200);
    await advance(HOUR_MS);
  });
  after(async () => {
    await server?.close();
  });

  it('sums value, P&L, the biggest win and predictions, by name in any letter case', async () => {
    const summary = await ok('alice_p', 'summary');
    assert.deepEqual(summary, { positionsValue: '2', biggestWin: '1.8', predictions: 1, rewardsUsd: '0', rewardsCount: 0, allTimePnl: '1.8' });
    // Bob: 10 of token 2 for 6, now at 0.5 (the complement of the last trade): −1.
    assert.deepEqual(await ok('BOB-P', 'summary'), { positionsValue: '5', biggestWin: '0', predictions: 1, rewardsUsd: '0', rewardsCount: 0, allTimePnl: '-1' });
  });

  it('lists active and closed positions with prices in cents', async () => {
    const active = await ok('Alice_P', 'positions?status=active');
    assert.deepEqual(active.map((p: any) => [p.id, p.market, p.side, p.avg, p.bet, p.shares, p.now, p.value, p.changePct]).sort(), [
      [m2.tokenId1, m2.name, 'SIDE_A', 50, '1', 2, 50, '1', 0],
      [m2.tokenId2, m2.name, 'SIDE_B', 50, '1', 2, 50, '1', 0],
    ].sort());
    assert.deepEqual([active[0].isMultiMarket, active[0].isSeriesLayout, active[0].slug], [true, false, m2.slug]);
    const closed = await ok('Alice_P', 'positions?status=closed');
    assert.deepEqual(closed.map((p: any) => [p.id, p.market, p.side, p.avg, p.bet, p.exit, p.pnl, p.pnlPct]), [[m1.tokenId1, m1.name, 'SIDE_A', 40, '4', 58, '1.8', 45]]);
    assert.ok(!('shares' in closed[0]) && !('exit' in active[0]));
  });

  it('shows the newest trade rows, bought and sold', async () => {
    const rows = await ok('Alice_P', 'activity');
    assert.deepEqual(rows.map((r: any) => [r.action, r.side, r.market, r.amount, r.price]), [
      ['sold', 'SIDE_A', m1.name, '3', 50],
      ['sold', 'SIDE_A', m1.name, '2.8', 70],
      ['bought', 'SIDE_A', m1.name, '4', 40],
    ]);
    assert.ok(rows[0].timestamp - rows[1].timestamp >= 2 * HOUR_MS && rows[1].timestamp - rows[2].timestamp >= 2 * HOUR_MS);
    assert.ok(rows[2].timestamp > 1e12, 'Unix milliseconds');
  });

  it('draws the P&L history from the recorded series, ending at the live total', async () => {
    const nowSec = Math.floor(Number((await get(server.api('/exchange'))).body.serverTime) / 1000);
    const day = await ok('Alice_P', 'pnl-history?range=1D');
    assert.equal(day.range, '1D');
    assert.equal(day.value, '1.8');
    assert.deepEqual(day.points.map((p: any) => p.value), [0, 1.2, 1.8, 1.8]);
    assert.equal(day.points[0].time, nowSec - 86_400);
    assert.equal(day.points.at(-1).time, nowSec);
    for (const range of ['1W', '1M', '1Y', 'YTD', 'ALL']) {
      const body = await ok('Alice_P', `pnl-history?range=${range}`);
      assert.equal(body.range, range);
      assert.equal(body.points.at(-1).value, 1.8, range);
      assert.ok(body.points.every((p: any, i: number) => i === 0 || p.time > body.points[i - 1].time), range);
    }
  });

  it('shows zeros and empty lists for a named user who never traded', async () => {
    const eve = await newTrader(server);
    assert.equal((await eve.call('PATCH', '/account', { displayName: 'eve_quiet' })).status, 200);
    assert.deepEqual(await ok('eve_quiet', 'summary'), { positionsValue: '0', biggestWin: '0', predictions: 0, rewardsUsd: '0', rewardsCount: 0, allTimePnl: '0' });
    assert.deepEqual(await ok('eve_quiet', 'positions?status=active'), []);
    assert.deepEqual(await ok('eve_quiet', 'positions?status=closed'), []);
    assert.deepEqual(await ok('eve_quiet', 'activity'), []);
    const history = await ok('eve_quiet', 'pnl-history?range=1W');
    assert.deepEqual([history.value, history.points.map((p: any) => p.value)], ['0', [0, 0]]);
  });

  it('is 404 for unknown names and anonymous users, and never shows a wallet', async () => {
    for (const path of ['summary', 'pnl-history?range=1D', 'positions?status=active', 'activity']) {
      expectError(await profile('nobody_here', path), 404, 'NOT_FOUND');
      // Longer than any display name (and than Fastify's default 100-character path parameter).
      expectError(await profile('n'.repeat(150), path), 404, 'NOT_FOUND');
      expectError(await profile('dave_anon', path), 404, 'NOT_FOUND');
      const text = JSON.stringify(await ok('Alice_P', path)).toLowerCase();
      for (const t of [alice, bob, carol]) {
        assert.ok(!text.includes(t.address.toLowerCase().slice(2)) && !text.includes(t.proxyWallet.toLowerCase().slice(2)), path);
      }
    }
  });

  it('rejects a missing or unknown range or status with 400', async () => {
    for (const path of ['pnl-history', 'pnl-history?range=2D', 'positions', 'positions?status=open']) {
      expectError(await profile('Alice_P', path), 400, 'VALIDATION_FAILED');
    }
    expectError(await profile('a\u0000b', 'summary'), 400, 'VALIDATION_FAILED');
  });
});
