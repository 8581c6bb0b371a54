import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, get, patch, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * EXTENSIONS.md section 13 templates on the manual clock: the admin routes, one market per period
 * published `lead` periods ahead with no gap and no duplicate as time moves, the series event's
 * recent window and `metadata.cryptoPairTargetPrice`, rewards on every market, and a generated
 * market from trading to redemption.
 */
const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;

describe('templates and series', () => {
  let server: TestServer;
  let firstStart: number;
  const iso = (ms: number) => new Date(ms).toISOString();
  const clockTo = async (ms: number) => assert.equal((await post(server.api('/admin/clock'), { now: iso(ms) }, server.adminHeaders)).status, 200);
  const createTemplate = (body: Record<string, unknown>, headers = server.adminHeaders) => post(server.api('/admin/templates'), body, headers);
  const adminEvent = async (eventId: string) => (await get(server.api(`/events/${eventId}?marketScope=ALL`), server.adminHeaders)).body;
  let n = 0;
  const input = (extra: Record<string, unknown> = {}) => ({
    name: `BTC hourly ${++n}`, slug: `btc-hourly-${n}`, description: 'Up or down each hour', pair: 'BTC/USD', period: '1h', firstStart: iso(firstStart), ...extra,
  });

  before(async () => {
    server = await startTestServer();
    // The next whole hour, at least ten minutes away: the series starts in the future.
    firstStart = Math.ceil((server.ctx.clock.nowMs() + 600_000) / HOUR_MS) * HOUR_MS;
  });
  after(async () => {
    await server.close();
  });

  it('creates a template with its series event (201), lists and patches it', async () => {
    const created = await createTemplate(input({ lead: 2, displayTimezone: 'America/New_York', reward: '1', proposalBond: '2', liveness: 900 }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const template = created.body;
    assert.deepEqual({ ...template, id: undefined, eventId: undefined, createdAt: undefined, updatedAt: undefined }, {
      id: undefined, eventId: undefined, createdAt: undefined, updatedAt: undefined,
      name: `BTC hourly ${n}`, slug: `btc-hourly-${n}`, description: 'Up or down each hour', pair: 'BTC/USD', period: '1h', firstStart: iso(firstStart),
      lead: 2, displayTimezone: 'America/New_York', categories: [], tags: [], tickSize: '0.01', orderFeeRateBps: null, passiveOrderFeeRateBps: null,
      reward: '1', proposalBond: '2', liveness: 900, rewards: null, enabled: true,
    });
    const event = (await get(server.api(`/events/${template.eventId}`))).body;
    assert.equal(event.templateId, template.id);
    assert.equal(event.endDate, null);
    assert.equal(event.eventStatus, 'ACTIVE');
    assert.deepEqual(event.markets, []);

    const listed = await get(server.api('/admin/templates'), server.adminHeaders);
    assert.equal(listed.status, 200);
    assert.ok(listed.body.some((t: { id: string }) => t.id === template.id));
    const patched = await patch(server.api(`/admin/templates/${template.id}`), { enabled: false, lead: 0, tickSize: '0.001' }, server.adminHeaders);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.enabled, patched.body.lead, patched.body.tickSize], [false, 0, '0.001']);
    // Disabled: time passing publishes nothing.
    await clockTo(firstStart - 60_000);
    assert.deepEqual((await adminEvent(template.eventId)).markets, []);
  });

  it('refuses bad input with 400, a taken slug with 409, and anyone but the operator with 401', async () => {
    for (const extra of [
      { pair: 'BTCUSD' }, { pair: 'btc/usd' }, { period: '2h' }, { firstStart: 'tomorrow' }, { lead: -1 }, { lead: 97 }, { lead: 1.5 },
      { displayTimezone: 'Mars/Olympus' }, { tickSize: '0.5' }, { orderFeeRateBps: 10_001 }, { reward: '-1' }, { liveness: -5 },
      { categories: ['00000000-0000-4000-8000-000000000000'] }, { slug: 'Not A Slug' },
      { rewards: { rewardUsdc: 'ten', maxDistanceFromMid: '0.03', minOrderSizeUsdc: '1' } }, { rewards: { rewardUsdc: '10' } },
    ]) expectError(await createTemplate(input(extra)), 400, 'VALIDATION_FAILED');
    for (const field of ['name', 'slug', 'description', 'pair', 'period', 'firstStart']) {
      const body: Record<string, unknown> = input();
      delete body[field];
      expectError(await createTemplate(body), 400, 'VALIDATION_FAILED');
    }
    const first = await createTemplate(input());
    assert.equal(first.status, 201);
    expectError(await createTemplate({ ...input(), slug: first.body.slug }), 409, 'CONFLICT');
    // The series event's slug is the template's: an event slug taken elsewhere clashes too.
    const event = await post(server.api('/admin/events'), { name: 'taken', slug: 'taken-event-slug', description: 'd', markets: [{ name: 'm' }] }, server.adminHeaders);
    assert.equal(event.status, 200);
    expectError(await createTemplate({ ...input(), slug: 'taken-event-slug' }), 409, 'CONFLICT');
    await patch(server.api(`/admin/templates/${first.body.id}`), { enabled: false }, server.adminHeaders);

    const url = server.api(`/admin/templates/${first.body.id}`);
    expectError(await patch(url, { lead: 200 }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await patch(url, { displayTimezone: 'Nowhere/Land' }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await patch(url, { enabled: 'maybe' }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await patch(server.api('/admin/templates/00000000-0000-4000-8000-000000000000'), { enabled: true }, server.adminHeaders), 404, 'NOT_FOUND');
    expectError(await patch(server.api('/admin/templates/not-a-uuid'), { enabled: true }, server.adminHeaders), 400, 'VALIDATION_FAILED');

    const anonymous = { 'content-type': 'application/json' };
    const wrong = { 'content-type': 'application/json', authorization: 'Bearer wrong-token-wrong-token' };
    for (const headers of [anonymous, wrong]) {
      expectError(await createTemplate(input(), headers), 401, 'UNAUTHORIZED');
      expectError(await get(server.api('/admin/templates'), headers), 401, 'UNAUTHORIZED');
      expectError(await patch(url, { enabled: true }, headers), 401, 'UNAUTHORIZED');
    }
    const trader = await newTrader(server);
    expectError(await trader.call('GET', '/admin/templates'), 401, 'UNAUTHORIZED');
  });

  it('publishes one market per period, lead periods ahead, with no gap and no duplicate as time moves', async () => {
    const start = firstStart + 4 * HOUR_MS;
    const created = await createTemplate(input({ period: '15m', firstStart: iso(start), lead: 2, rewards: { rewardUsdc: '24', maxDistanceFromMid: '0.05', minOrderSizeUsdc: '1' } }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { eventId } = created.body;
    const starts = async () => (await adminEvent(eventId)).markets.map((m: { startDate: string }) => Date.parse(m.startDate)).sort((a: number, b: number) => a - b);
    const expected = (count: number) => Array.from({ length: count }, (_, k) => start + k * QUARTER_MS);

    // Twenty minutes before the first period, lead 2: the first period only (the "current" one is before the series).
    await clockTo(start - 20 * 60_000);
    assert.deepEqual(await starts(), expected(2).slice(0, 1));
    await clockTo(start - 1);
    assert.deepEqual(await starts(), expected(2));
    await clockTo(start);
    assert.deepEqual(await starts(), expected(3));
    // Ticks within one period publish nothing new.
    await clockTo(start + 60_000);
    await clockTo(start + 120_000);
    assert.deepEqual(await starts(), expected(3));
    for (let k = 1; k <= 4; k++) {
      await clockTo(start + k * QUARTER_MS);
      assert.deepEqual(await starts(), expected(k + 3));
    }
    const event = await adminEvent(eventId);
    for (const market of event.markets) {
      assert.equal(market.status, 'ACTIVE');
      assert.deepEqual([market.outcome1, market.outcome2], ['Up', 'Down']);
      assert.equal(Date.parse(market.endDate) - Date.parse(market.startDate), QUARTER_MS);
      assert.deepEqual({ ...market.priceTargetConfig, targetPrice: undefined }, { targetType: 'CLOSE_PRICE', pair: 'BTC/USD', source: 'oracle', targetPrice: undefined, targetAt: market.startDate, resolveAt: market.endDate });
      assert.match(market.name, /^BTC\/USD up or down, [A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}-\d{2}:\d{2} UTC$/);
    }
    // Every generated market got the template's rewards for its period.
    const rewards = await server.ctx.store.db.selectFrom('reward_configs').selectAll().where('market_id', 'in', event.markets.map((m: { id: string }) => m.id)).execute();
    assert.equal(rewards.length, event.markets.length);
    for (const row of rewards) {
      const market = event.markets.find((m: { id: string }) => m.id === row.market_id);
      assert.deepEqual([row.start_at?.toISOString(), row.end_at?.toISOString(), row.reward_base_units], [market.startDate, market.endDate, 24_000_000n]);
    }

    // AUTO on a series event is the recent window: the latest startDates, upcoming ones included.
    const recent = (await get(server.api(`/events/${eventId}?marketLimit=2`))).body;
    assert.deepEqual(recent.markets.map((m: { startDate: string }) => Date.parse(m.startDate)), expected(7).slice(5));
    expectError(await get(server.api(`/events/${eventId}?marketLimit=0`)), 400, 'VALIDATION_FAILED');
    assert.equal((await get(server.api(`/events/${eventId}?marketScope=ALL`))).body.markets.length, 7);

    // metadata.cryptoPairTargetPrice follows the current market once its start price is known.
    const now = start + 4 * QUARTER_MS;
    assert.equal(recent.metadata?.cryptoPairTargetPrice, undefined);
    assert.equal((await post(server.api('/admin/prices'), { pair: 'BTC/USD', price: '97001.25', at: iso(now) }, server.adminHeaders)).status, 200);
    const withTarget = (await get(server.api(`/events/${eventId}?marketLimit=2`))).body;
    assert.equal(withTarget.metadata.cryptoPairTargetPrice, '97001.25');
    const listedEvent = (await get(server.api('/events?limit=100'))).body.data.find((e: { id: string }) => e.id === eventId);
    assert.equal(listedEvent.metadata.cryptoPairTargetPrice, '97001.25');

    // Disabled, the template stops; enabled again later, it resumes from the current period.
    await patch(server.api(`/admin/templates/${created.body.id}`), { enabled: false }, server.adminHeaders);
    await clockTo(start + 6 * QUARTER_MS);
    assert.deepEqual(await starts(), expected(7));
    await patch(server.api(`/admin/templates/${created.body.id}`), { enabled: true, lead: 0 }, server.adminHeaders);
    await clockTo(start + 6 * QUARTER_MS + 1);
    assert.deepEqual(await starts(), expected(7));
    await clockTo(start + 7 * QUARTER_MS);
    assert.deepEqual(await starts(), expected(8));
    await patch(server.api(`/admin/templates/${created.body.id}`), { enabled: false }, server.adminHeaders);
  });

  it('names periods in the display time zone', async () => {
    const start = Date.parse('2027-01-05T19:00:00.000Z');
    const created = await createTemplate(input({ firstStart: iso(start), lead: 0, displayTimezone: 'America/New_York' }));
    await clockTo(start);
    const [market] = (await adminEvent(created.body.eventId)).markets;
    assert.equal(market.name, 'BTC/USD up or down, Jan 5, 14:00-15:00 EST');
    assert.equal(market.displayTimezone, 'America/New_York');
    await patch(server.api(`/admin/templates/${created.body.id}`), { enabled: false }, server.adminHeaders);
  });

  it('takes a generated market from trading through the feed-proposed outcome to redemption', async () => {
    const now = server.ctx.clock.nowMs();
    const start = Math.ceil(now / HOUR_MS) * HOUR_MS;
    const created = await createTemplate(input({ firstStart: iso(start), lead: 0, liveness: 600 }));
    await clockTo(start);
    const [market] = (await adminEvent(created.body.eventId)).markets;
    assert.equal(market.priceTargetConfig.targetPrice, null);
    assert.equal((await post(server.api('/admin/prices'), { pair: 'BTC/USD', price: '98000', at: iso(start) }, server.adminHeaders)).status, 200);
    assert.equal((await get(server.api(`/markets/${market.id}`))).body.priceTargetConfig.targetPrice, '98000');

    const alice = await newTrader(server, { fund: '100' });
    const bob = await newTrader(server, { fund: '100' });
    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '20' })).status, 200);
    assert.equal((await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '20' })).status, 200);
    await server.ctx.trading.engine.settle();

    await clockTo(start + HOUR_MS);
    assert.equal((await post(server.api('/admin/prices'), { pair: 'BTC/USD', price: '97999.99', at: iso(start + HOUR_MS) }, server.adminHeaders)).status, 200);
    await clockTo(start + HOUR_MS + 1000);
    const proposed = (await get(server.api(`/markets/${market.id}/resolution`))).body;
    assert.deepEqual([proposed.status, proposed.proposedOutcome], ['PROPOSED', 'NO']);
    await clockTo(start + HOUR_MS + 1000 + 600_000);
    assert.equal((await get(server.api(`/markets/${market.id}`))).body.marketResolvedTo, 'NO');
    const redeemed = await bob.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.equal((await bob.call('GET', '/account/balance')).body.collateral.balance, '110');
    await expectAuditClean(server);
  });
});
