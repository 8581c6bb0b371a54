import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createPrices } from '../../src/prices/index.ts';
import { finalizeTargetPrice } from '../../src/store/price-targets-repository.ts';
import { expectError, get, patch, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * EXTENSIONS.md section 13 on the manual clock: reference prices (POST /admin/prices, GET
 * /prices/reference), priceTargetConfig on markets (FIXED and CLOSE_PRICE), and resolution
 * proposals from the reference price, through to redemption.
 */
const HOUR_MS = 3_600_000;

describe('reference prices and price-target markets', () => {
  let server: TestServer;
  let t0: number;
  const iso = (ms: number) => new Date(ms).toISOString();
  const advance = async (ms: number) => assert.equal((await post(server.api('/admin/clock'), { advanceMs: ms }, server.adminHeaders)).status, 200);
  const postPrice = (body: Record<string, unknown>, headers = server.adminHeaders) => post(server.api('/admin/prices'), body, headers);
  const recordPrice = async (pair: string, price: string, atMs: number) => {
    const response = await postPrice({ pair, price, at: iso(atMs) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  };
  const metric = async (name: string) => {
    const line = (await (await fetch(`${server.url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${name} `));
    assert.ok(line, `${name} is exported`);
    return Number(line.split(' ')[1]);
  };
  const resolution = async (marketId: string) => (await get(server.api(`/markets/${marketId}/resolution`))).body;
  const market = async (marketId: string) => (await get(server.api(`/markets/${marketId}`))).body;

  /** A published single-market event whose market carries `priceTargetConfig`. */
  async function priceMarket(config: Record<string, unknown>, dates: { startDate?: string; endDate?: string } = {}) {
    const created = await post(server.api('/admin/events'), {
      name: `Price market ${Math.random()}`, description: 'd', liveness: 600,
      markets: [{ name: 'up?', outcome1: 'Up', outcome2: 'Down', ...dates, priceTargetConfig: config }],
    }, server.adminHeaders);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const published = await post(server.api(`/admin/events/${created.body.id}/publish`), undefined, server.adminHeaders);
    return published.body.markets[0];
  }

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' });
    t0 = server.ctx.clock.nowMs();
  });
  after(async () => {
    await server.close();
  });

  it('records prices and answers the last one at or before a time, 404 before the first', async () => {
    expectError(await get(server.api('/prices/reference?pair=ETH/USD')), 404, 'NOT_FOUND');
    const first = await postPrice({ pair: 'ETH/USD', price: '3000.5', at: iso(t0 - 60_000) });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, { pair: 'ETH/USD', price: '3000.5', at: iso(t0 - 60_000), source: 'manual' });
    assert.equal((await postPrice({ pair: 'ETH/USD', price: '3100.12345678', at: iso(t0 - 30_000) })).status, 200);
    // `at` defaults to now.
    assert.equal((await postPrice({ pair: 'ETH/USD', price: '3200' })).body.at, iso(t0));

    assert.deepEqual((await get(server.api('/prices/reference?pair=ETH/USD'))).body, { pair: 'ETH/USD', price: '3200', at: iso(t0), source: 'manual' });
    assert.equal((await get(server.api(`/prices/reference?pair=ETH/USD&at=${iso(t0 - 1)}`))).body.price, '3100.12345678');
    assert.equal((await get(server.api(`/prices/reference?pair=ETH/USD&at=${iso(t0 - 60_000)}`))).body.price, '3000.5');
    expectError(await get(server.api(`/prices/reference?pair=ETH/USD&at=${iso(t0 - 60_001)}`)), 404, 'NOT_FOUND');
    // A second price at the same instant replaces the first.
    assert.equal((await postPrice({ pair: 'ETH/USD', price: '3000.75', at: iso(t0 - 60_000) })).status, 200);
    assert.equal((await get(server.api(`/prices/reference?pair=ETH/USD&at=${iso(t0 - 45_000)}`))).body.price, '3000.75');
  });

  it('refuses malformed prices and queries with 400, and anyone but the operator with 401', async () => {
    for (const body of [
      { pair: 'btc/usd', price: '1' }, { pair: 'BTCUSD', price: '1' }, { pair: 'BTC/USD', price: '0' }, { pair: 'BTC/USD', price: '-1' },
      { pair: 'BTC/USD', price: '1.123456789' }, { pair: 'BTC/USD', price: '1e5' }, { pair: 'BTC/USD', price: '01' }, { pair: 'BTC/USD' },
      { price: '1' }, { pair: 'BTC/USD', price: '1', at: 'yesterday' }, { pair: 'BTC/USD', price: '1', at: iso(t0 + HOUR_MS * 24 * 365) },
    ]) expectError(await postPrice(body), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/prices/reference')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/prices/reference?pair=BTC-USD')), 400, 'VALIDATION_FAILED');
    expectError(await get(server.api('/prices/reference?pair=BTC/USD&at=soon')), 400, 'VALIDATION_FAILED');

    expectError(await postPrice({ pair: 'BTC/USD', price: '1' }, { 'content-type': 'application/json' }), 401, 'UNAUTHORIZED');
    expectError(await postPrice({ pair: 'BTC/USD', price: '1' }, { 'content-type': 'application/json', authorization: 'Bearer not-the-admin-token-at-all' }), 401, 'UNAUTHORIZED');
    const trader = await newTrader(server);
    expectError(await trader.call('POST', '/admin/prices', { pair: 'BTC/USD', price: '1' }), 401, 'UNAUTHORIZED');
    expectError(await get(server.api('/prices/reference?pair=BTC/USD')), 404, 'NOT_FOUND');
  });

  it('validates priceTargetConfig on admin create and add-market', async () => {
    const end = iso(t0 + HOUR_MS);
    const create = (config: unknown, extra: Record<string, unknown> = { endDate: end }) => post(server.api('/admin/events'), {
      name: 'bad target', description: 'd', markets: [{ name: 'm', ...extra, priceTargetConfig: config }],
    }, server.adminHeaders);
    for (const config of [
      { targetType: 'FIXED', pair: 'BTC/USD' },
      { targetType: 'FIXED', pair: 'BTC/USD', targetPrice: null },
      { targetType: 'FIXED', pair: 'BTC/USD', targetPrice: '0' },
      { targetType: 'FIXED', pair: 'BTC/USD', targetPrice: '12.123456789' },
      { targetType: 'FIXED', pair: 'BTC', targetPrice: '1' },
      { targetType: 'ABOVE', pair: 'BTC/USD', targetPrice: '1' },
      { targetType: 'CLOSE_PRICE', pair: 'BTC/USD', source: 'feed' },
      { targetType: 'CLOSE_PRICE', pair: 'BTC/USD', targetPrice: '100' },
      { targetType: 'CLOSE_PRICE', pair: 'BTC/USD', targetAt: 'noon' },
      { targetType: 'CLOSE_PRICE', pair: 'BTC/USD', targetAt: iso(t0 + 2 * HOUR_MS) },
      'BTC/USD',
    ]) expectError(await create(config), 400, 'VALIDATION_FAILED');
    // Without an end date the market needs resolveAt.
    expectError(await create({ targetType: 'FIXED', pair: 'BTC/USD', targetPrice: '1' }, {}), 400, 'VALIDATION_FAILED');
    const ok = await create({ targetType: 'FIXED', pair: 'BTC/USD', targetPrice: '1', resolveAt: end }, {});
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    expectError(await post(server.api(`/admin/events/${ok.body.id}/markets`), { name: 'x', endDate: end, priceTargetConfig: { targetType: 'FIXED', pair: 'BTC/USD' } }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    const added = await post(server.api(`/admin/events/${ok.body.id}/markets`), { name: 'x', endDate: end, priceTargetConfig: { targetType: 'CLOSE_PRICE', pair: 'SOL/USD', source: 'manual' } }, server.adminHeaders);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.priceTargetConfig, { targetType: 'CLOSE_PRICE', pair: 'SOL/USD', source: 'manual', targetPrice: null, targetAt: ok.body.startDate, resolveAt: end });
    assert.deepEqual(ok.body.markets[0].priceTargetConfig, { targetType: 'FIXED', pair: 'BTC/USD', source: 'oracle', targetPrice: '1', targetAt: ok.body.startDate, resolveAt: end });

    const plain = await post(server.api('/admin/events'), { name: 'plain', description: 'd', markets: [{ name: 'm' }] }, server.adminHeaders);
    assert.equal(plain.body.markets[0].priceTargetConfig, null);
  });

  it('derives a CLOSE_PRICE target once the price at targetAt is known, and keeps it', async () => {
    const start = server.ctx.clock.nowMs() + 10 * 60_000;
    const m = await priceMarket({ targetType: 'CLOSE_PRICE', pair: 'XRP/USD' }, { startDate: iso(start), endDate: iso(start + HOUR_MS) });
    assert.equal(m.priceTargetConfig.targetPrice, null);
    assert.equal(m.priceTargetConfig.targetAt, iso(start));
    await recordPrice('XRP/USD', '0.5', start - 10 * 60_000);
    await advance(10 * 60_000);
    // The last price before the start is known, but the feed has said nothing since: not final yet.
    assert.equal((await market(m.id)).priceTargetConfig.targetPrice, null);
    await recordPrice('XRP/USD', '0.61', start);
    assert.equal((await market(m.id)).priceTargetConfig.targetPrice, '0.61');
    // A later correction of the price does not move a kept target.
    await recordPrice('XRP/USD', '0.7', start);
    assert.equal((await market(m.id)).priceTargetConfig.targetPrice, '0.61');
  });

  it('lets the operator set a manual target by PATCH, until the market is proposed', async () => {
    const now = server.ctx.clock.nowMs();
    const m = await priceMarket({ targetType: 'CLOSE_PRICE', pair: 'ADA/USD', source: 'manual' }, { endDate: iso(now + HOUR_MS) });
    const url = server.api(`/admin/markets/${m.id}`);
    expectError(await patch(url, { priceTargetConfig: { targetPrice: 'abc' } }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await patch(url, { priceTargetConfig: {} }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await patch(url, { priceTargetConfig: { targetPrice: '1' } }, { 'content-type': 'application/json' }), 401, 'UNAUTHORIZED');
    expectError(await patch(server.api('/admin/markets/00000000-0000-4000-8000-000000000000'), { priceTargetConfig: { targetPrice: '1' } }, server.adminHeaders), 404, 'NOT_FOUND');
    const set = await patch(url, { priceTargetConfig: { targetPrice: '0.45' } }, server.adminHeaders);
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.priceTargetConfig.targetPrice, '0.45');

    const plain = await post(server.api('/admin/events'), { name: 'plain 2', description: 'd', markets: [{ name: 'm' }] }, server.adminHeaders);
    expectError(await patch(server.api(`/admin/markets/${plain.body.markets[0].id}`), { priceTargetConfig: { targetPrice: '1' } }, server.adminHeaders), 400, 'VALIDATION_FAILED');

    assert.equal((await post(server.api(`/admin/markets/${m.id}/oracle/propose`), { outcome: 'NO' }, server.adminHeaders)).status, 200);
    expectError(await patch(url, { priceTargetConfig: { targetPrice: '0.5' } }, server.adminHeaders), 409, 'CONFLICT');
  });

  it('makes a target final as the price job proposes from it: a PATCH at that moment is refused, one just before is proposed from', async () => {
    const now = server.ctx.clock.nowMs();
    const end = now + HOUR_MS;
    const manual = (pair: string) => priceMarket({ targetType: 'CLOSE_PRICE', pair, source: 'manual', targetPrice: '100' }, { endDate: iso(end) });
    const raced = await manual('RCA/USD');
    const changed = await manual('RCB/USD');
    await advance(HOUR_MS);
    await recordPrice('RCA/USD', '101', end);
    await recordPrice('RCB/USD', '101', end);
    // A job whose proposal is overtaken by the operator's PATCH: the target it proposes from is final by then.
    const patches: { status: number; body: { code?: string } }[] = [];
    const racingJob = createPrices({
      db: server.ctx.store.db, clock: server.ctx.clock, logger: pino({ level: 'silent' }), feed: undefined,
      propose: async (marketId, outcome) => {
        patches.push(await patch(server.api(`/admin/markets/${marketId}`), { priceTargetConfig: { targetPrice: '102' } }, server.adminHeaders));
        return post(server.api(`/admin/markets/${marketId}/oracle/propose`), { outcome }, server.adminHeaders);
      },
    });
    // The operator moved the other target after a job read it, before that job made it final: that job proposes nothing, the next proposes from the new one.
    assert.equal((await patch(server.api(`/admin/markets/${changed.id}`), { priceTargetConfig: { targetPrice: '101.5' } }, server.adminHeaders)).status, 200);
    assert.equal(await finalizeTargetPrice(server.ctx.store.db, changed.id, 100_00000000n, new Date(end)), false);
    await racingJob.tick();
    assert.equal(patches.length, 2);
    for (const answer of patches) assert.equal(answer.body.code, 'CONFLICT');
    assert.equal((await resolution(raced.id)).proposedOutcome, 'YES');
    assert.equal((await market(raced.id)).priceTargetConfig.targetPrice, '100');
    // 101 is under the new target 101.5.
    assert.equal((await resolution(changed.id)).proposedOutcome, 'NO');
    assert.equal((await market(changed.id)).priceTargetConfig.targetPrice, '101.5');
  });

  it('proposes at resolveAt from the reference price: up, down, exactly equal (YES), and waits while the price is missing', async () => {
    const now = server.ctx.clock.nowMs();
    const end = now + HOUR_MS;
    const fixed = (pair: string) => priceMarket({ targetType: 'FIXED', pair, targetPrice: '100' }, { endDate: iso(end) });
    const up = await fixed('UPX/USD');
    const down = await fixed('DNX/USD');
    const equal = await fixed('EQX/USD');
    const missing = await fixed('MSX/USD');
    await advance(HOUR_MS - 1000);
    await recordPrice('UPX/USD', '100', end - 1000);
    await recordPrice('DNX/USD', '99.99999999', end - 1000);
    await advance(999);
    for (const m of [up, down, equal, missing]) assert.equal((await resolution(m.id)).status, 'UNPROPOSED');
    await advance(1);
    await recordPrice('UPX/USD', '100.00000001', end);
    await advance(1);
    assert.equal((await resolution(up.id)).status, 'PROPOSED');
    assert.equal((await resolution(up.id)).proposedOutcome, 'YES');
    // The price before resolveAt is known, but not final until the feed speaks at or after it.
    assert.equal((await resolution(down.id)).status, 'UNPROPOSED');
    await recordPrice('DNX/USD', '150', end + 1);
    await recordPrice('EQX/USD', '100', end);
    await advance(1000);
    assert.equal((await resolution(down.id)).proposedOutcome, 'NO');
    assert.equal((await resolution(equal.id)).proposedOutcome, 'YES');
    assert.equal((await resolution(missing.id)).status, 'UNPROPOSED');
    const awaiting = await metric('pmx_price_markets_awaiting_price');
    const missed = await metric('pmx_price_proposals_missing_price_total');
    assert.ok(awaiting >= 1 && missed >= 1);
    // A later tick, once the price is known, proposes it.
    await recordPrice('MSX/USD', '101', end);
    await advance(1000);
    assert.equal((await resolution(missing.id)).proposedOutcome, 'YES');
    assert.equal(await metric('pmx_price_markets_awaiting_price'), awaiting - 1);
    // The ordinary dispute window then settles and resolves.
    await advance(600_000);
    assert.equal((await resolution(up.id)).status, 'RESOLVED');
    assert.equal((await market(down.id)).marketResolvedTo, 'NO');
  });

  it('takes a CLOSE_PRICE market from trading through a feed-proposed outcome to redemption', async () => {
    const start = server.ctx.clock.nowMs();
    const m = await priceMarket({ targetType: 'CLOSE_PRICE', pair: 'BTC/USD' }, { startDate: iso(start), endDate: iso(start + HOUR_MS) });
    await recordPrice('BTC/USD', '97000', start);
    assert.equal((await market(m.id)).priceTargetConfig.targetPrice, '97000');
    const alice = await newTrader(server, { fund: '100' });
    const bob = await newTrader(server, { fund: '100' });
    assert.equal((await placeOrder(server, alice, { tokenId: m.tokenId1, side: 'BUY', price: '0.55', size: '10' })).status, 200);
    assert.equal((await placeOrder(server, bob, { tokenId: m.tokenId2, side: 'BUY', price: '0.45', size: '10' })).status, 200);
    await server.ctx.trading.engine.settle();
    await advance(HOUR_MS - 5000);
    await recordPrice('BTC/USD', '97250.5', start + HOUR_MS - 5000);
    await advance(5000);
    assert.equal((await resolution(m.id)).status, 'UNPROPOSED');
    await advance(1000);
    await recordPrice('BTC/USD', '96000', start + HOUR_MS + 1000);
    await advance(1000);
    assert.equal((await resolution(m.id)).proposedOutcome, 'YES');
    await advance(600_000);
    assert.equal((await resolution(m.id)).status, 'RESOLVED');
    const redeemed = await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [m.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    const balance = (await alice.call('GET', '/account/balance')).body.collateral;
    assert.equal(balance.balance, '104.5');
    await expectAuditClean(server);
  });
});
