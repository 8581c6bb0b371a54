import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { listEvents } from '../../src/store/catalogue-events-repository.ts';
import { updateMarket } from '../../src/store/catalogue-markets-repository.ts';
import { createDraftEvent, createPublishedEvent, insertTestOrder, insertTestTrade, type EventOptions } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Every test names its events with a fresh word and filters on it, so tests share one server. */
const word = () => `w${randomBytes(5).toString('hex')}`;

describe('GET /events', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const list = (query: string, headers?: Record<string, string>) => get(server.api(`/events?${query}`), headers);
  const names = async (query: string, headers?: Record<string, string>) => {
    const response = await list(query, headers);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.data.map((e: { name: string }) => e.name);
  };
  /** Publishes an event one second after the previous one, so creation order is time order. */
  const publish = async (tag: string, suffix: string, options: EventOptions = {}) => {
    await post(server.api('/admin/clock'), { advanceMs: 1000 }, server.adminHeaders);
    return createPublishedEvent(server, { name: `${tag} ${suffix}`, ...options });
  };

  it('lists published events with every Event field, newest first by default', async () => {
    const tag = word();
    await publish(tag, 'a');
    await publish(tag, 'b', { markets: 2 });
    const response = await list(`term=${tag}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['data', 'limit', 'page', 'total', 'totalCapped']);
    assert.equal(response.body.total, 2);
    assert.equal(response.body.totalCapped, false);
    assert.equal(response.body.page, 1);
    assert.equal(response.body.limit, 10);
    const [b, a] = response.body.data;
    assert.equal(a.name, `${tag} a`);
    assert.equal(b.name, `${tag} b`);
    for (const key of ['id', 'name', 'slug', 'description', 'createdAt', 'updatedAt', 'startDate', 'createdBy', 'endDate', 'icon', 'eventStatus', 'protected', 'single', 'negRisk', 'isDetermined', 'isInitialized', 'reward', 'proposalBond', 'liveness', 'orderFeeRateBps', 'passiveOrderFeeRateBps', 'marketId', 'ancillaryData', 'markets', 'categories', 'tags', 'totalVolumeUSD', 'liquidity']) {
      assert.ok(key in a, `event lacks ${key}`);
    }
    assert.equal(a.single, true);
    assert.equal(b.single, false);
    assert.equal(b.markets.length, 2);
    assert.equal(a.endDate, null);
    assert.equal(a.markets[0].tradeVolumeUsd, undefined, 'volume only when asked');
    assert.equal(a.markets[0].resolution, undefined);
  });

  it('never shows DRAFT events or markets to the public; the admin token sees them', async () => {
    const tag = word();
    await createDraftEvent(server, { name: `${tag} draft` });
    const { event } = await publish(tag, 'live');
    const added = await post(server.api(`/admin/events/${event.id}/markets`), { name: `${tag} later` }, server.adminHeaders);
    assert.equal(added.status, 200);
    assert.deepEqual(await names(`term=${tag}`), [`${tag} live`]);
    const publicEvent = (await list(`term=${tag}`)).body.data[0];
    assert.equal(publicEvent.markets.length, 1);
    assert.deepEqual((await names(`term=${tag}&eventStatus=DRAFT`)), []);
    assert.deepEqual((await names(`term=${tag}&sortBy=name&order=ASC`, server.adminHeaders)), [`${tag} draft`, `${tag} live`]);
    const adminEvent = (await list(`term=${tag}&eventStatus=ACTIVE`, server.adminHeaders)).body.data[0];
    assert.equal(adminEvent.markets.length, 2);
    assert.equal(adminEvent.markets[1].status, 'DRAFT');
    assert.equal(adminEvent.markets[1].tokenId1, null);
    assert.deepEqual(await names(`term=${tag}&eventStatus=DRAFT`, server.adminHeaders), [`${tag} draft`]);
  });

  it('searches names, slugs and descriptions, ignoring case, with wildcards taken literally', async () => {
    const tag = word();
    await publish(tag, 'Alpha');
    const beta = await createDraftEvent(server, { name: `${tag} beta` });
    await post(server.api(`/admin/events/${beta.id}/publish`), undefined, server.adminHeaders);
    assert.deepEqual(await names(`term=${tag.toUpperCase()}%20ALPHA`), [`${tag} Alpha`]);
    assert.deepEqual(await names(`term=${beta.slug}`), [`${tag} beta`]);
    assert.deepEqual(await names(`term=${encodeURIComponent(`About ${tag} b`)}`), [`${tag} beta`]);
    assert.deepEqual(await names(`term=${tag}%25`), []);
  });

  it('filters by category, by tag, and by both', async () => {
    const tag = word();
    const category = (await post(server.api('/admin/categories'), { name: `${tag} politics` }, server.adminHeaders)).body;
    const t1 = (await post(server.api('/admin/tags'), { slug: `${tag}-t1`, label: 'T1', type: 'topic' }, server.adminHeaders)).body;
    const t2 = (await post(server.api('/admin/tags'), { slug: `${tag}-t2`, label: 'T2', type: 'topic' }, server.adminHeaders)).body;
    await publish(tag, 'both', { categories: [category.id], tags: [t1.id, t2.id] });
    await publish(tag, 'category', { categories: [category.id] });
    await publish(tag, 'tag', { tags: [t1.id] });
    await publish(tag, 'none');
    const sorted = async (query: string) => (await names(`term=${tag}&${query}`)).sort();
    assert.deepEqual(await sorted(`category=${category.id}`), [`${tag} both`, `${tag} category`]);
    assert.deepEqual(await sorted(`tag=${t1.id}`), [`${tag} both`, `${tag} tag`]);
    assert.deepEqual(await sorted(`tag=${t1.id}&category=${category.id}`), [`${tag} both`]);
    const both = (await list(`term=${tag}&tag=${t2.id}`)).body.data[0];
    assert.deepEqual(both.categories.map((c: { id: string }) => c.id), [category.id]);
    assert.deepEqual(both.tags, [t1, t2]);
    assert.deepEqual(Object.keys(both.categories[0]).sort(), ['active', 'createdAt', 'createdBy', 'id', 'name', 'position', 'updatedAt', 'updatedBy']);
  });

  it('leaves protected events out unless protected=true, and filters single and multi-market events', async () => {
    const tag = word();
    await publish(tag, 'open');
    await publish(tag, 'guarded', { protected: true });
    await publish(tag, 'multi', { markets: 3 });
    assert.deepEqual((await names(`term=${tag}&sortBy=name&order=ASC`)), [`${tag} multi`, `${tag} open`]);
    assert.deepEqual((await names(`term=${tag}&protected=false&sortBy=name&order=ASC`)), [`${tag} multi`, `${tag} open`]);
    assert.deepEqual((await names(`term=${tag}&protected=true&sortBy=name&order=ASC`)), [`${tag} guarded`, `${tag} multi`, `${tag} open`]);
    assert.deepEqual((await names(`term=${tag}&single=false`)), [`${tag} multi`]);
    assert.deepEqual((await names(`term=${tag}&single=true&protected=true&sortBy=name`)), [`${tag} open`, `${tag} guarded`]);
  });

  it('filters by market resolution and settlement', async () => {
    const tag = word();
    const resolved = await publish(tag, 'resolved', { markets: 2 });
    await publish(tag, 'open');
    await updateMarket(server.ctx.store.db, resolved.markets[0]!.id, { is_resolved: true, is_settled: true, status: 'RESOLVED' });
    assert.deepEqual(await names(`term=${tag}&isResolved=true`), [`${tag} resolved`]);
    assert.deepEqual(await names(`term=${tag}&isSettled=true`), [`${tag} resolved`]);
    assert.deepEqual((await names(`term=${tag}&isResolved=false`)).sort(), [`${tag} open`, `${tag} resolved`]);
  });

  it('filters and sorts by liquidity: resting notional, bounds inclusive, and needs a bound to sort', async () => {
    const tag = word();
    const deep = await publish(tag, 'deep');
    const thin = await publish(tag, 'thin');
    await publish(tag, 'empty');
    // 0.5 × 20 = 10 resting; a fill, a cancelled order and a delayed taker do not count.
    await insertTestOrder(server, deep.markets[0]!, { priceMicros: 500_000n, sizeBaseUnits: 24_000_000n, matchedBaseUnits: 4_000_000n, status: 'EXECUTING' });
    await insertTestOrder(server, deep.markets[0]!, { priceMicros: 500_000n, sizeBaseUnits: 9_000_000n, status: 'CANCELLED' });
    await insertTestOrder(server, deep.markets[0]!, { priceMicros: 500_000n, sizeBaseUnits: 9_000_000n, delayed: true });
    await insertTestOrder(server, thin.markets[0]!, { priceMicros: 300_000n, sizeBaseUnits: 10_000_000n });
    assert.equal((await list(`term=${tag}&minLiquidity=10`)).body.data[0].liquidity, '10');
    assert.deepEqual((await names(`term=${tag}&minLiquidity=3&sortBy=liquidity&order=DESC`)), [`${tag} deep`, `${tag} thin`]);
    assert.deepEqual((await names(`term=${tag}&maxLiquidity=3&sortBy=liquidity&order=ASC`)), [`${tag} empty`, `${tag} thin`]);
    assert.deepEqual((await names(`term=${tag}&minLiquidity=3.000001`)), [`${tag} deep`]);
    assert.deepEqual((await names(`term=${tag}&minLiquidity=0&sortBy=liquidity&order=ASC`)), [`${tag} empty`, `${tag} thin`, `${tag} deep`]);
    expectError(await list(`term=${tag}&sortBy=liquidity`), 400, 'VALIDATION_FAILED');
    expectError(await list(`minLiquidity=-1`), 400, 'VALIDATION_FAILED');
    expectError(await list(`maxLiquidity=lots`), 400, 'VALIDATION_FAILED');
  });

  it('sorts by volume and 24-hour volume, and adds market volumes with includeVolume', async () => {
    const tag = word();
    const old = await publish(tag, 'old');
    const recent = await publish(tag, 'recent');
    await publish(tag, 'quiet');
    const now = server.ctx.clock.nowMs();
    await insertTestTrade(server, old.markets[0]!, { priceMicros: 500_000n, sizeBaseUnits: 100_000_000n, matchedAt: new Date(now - 2 * 86_400_000) });
    await insertTestTrade(server, recent.markets[0]!, { priceMicros: 400_000n, sizeBaseUnits: 10_000_000n });
    await insertTestTrade(server, recent.markets[0]!, { priceMicros: 400_000n, sizeBaseUnits: 500_000_000n, status: 'FAILED' });
    assert.deepEqual(await names(`term=${tag}&sortBy=tradeVolumeUsd&order=DESC`), [`${tag} old`, `${tag} recent`, `${tag} quiet`]);
    assert.equal((await names(`term=${tag}&sortBy=tradeVolumeUsd24h&order=DESC`))[0], `${tag} recent`);
    assert.equal((await names(`term=${tag}&sortBy=tradeVolumeUsd24h&order=ASC`))[2], `${tag} recent`);
    const events = (await list(`term=${tag}&includeVolume=true&sortBy=name&order=ASC`)).body.data;
    assert.equal(events[0].totalVolumeUSD, '50');
    assert.deepEqual([events[0].markets[0].tradeVolumeUsd, events[0].markets[0].tradeVolumeUsd24h], ['50', '0']);
    assert.deepEqual([events[2].markets[0].tradeVolumeUsd, events[2].markets[0].tradeVolumeUsd24h], ['4', '4']);
    assert.deepEqual([events[1].markets[0].tradeVolumeUsd, events[1].markets[0].tradeVolumeUsd24h], ['0', '0']);
  });

  it('sorts by every key in both directions, ties broken by id', async () => {
    const tag = word();
    await publish(tag, 'b', { endDate: '2099-01-02T00:00:00.000Z' });
    await publish(tag, 'a', { endDate: '2099-01-03T00:00:00.000Z' });
    await publish(tag, 'c');
    assert.deepEqual(await names(`term=${tag}&sortBy=name&order=ASC`), [`${tag} a`, `${tag} b`, `${tag} c`]);
    assert.deepEqual(await names(`term=${tag}&sortBy=name&order=DESC`), [`${tag} c`, `${tag} b`, `${tag} a`]);
    assert.deepEqual(await names(`term=${tag}&sortBy=slug&order=ASC`), [`${tag} a`, `${tag} b`, `${tag} c`]);
    assert.deepEqual(await names(`term=${tag}&sortBy=endDate&order=ASC`), [`${tag} b`, `${tag} a`, `${tag} c`], 'no end date sorts last');
    assert.deepEqual(await names(`term=${tag}&sortBy=endDate&order=DESC`), [`${tag} a`, `${tag} b`, `${tag} c`]);
    assert.deepEqual(await names(`term=${tag}&sortBy=createdAt&order=ASC`), [`${tag} b`, `${tag} a`, `${tag} c`]);
    assert.deepEqual(await names(`term=${tag}&sortBy=startDate&order=DESC`), [`${tag} c`, `${tag} a`, `${tag} b`]);
    for (const key of ['id', 'eventStatus']) {
      const ascending = await names(`term=${tag}&sortBy=${key}&order=ASC`);
      assert.deepEqual(await names(`term=${tag}&sortBy=${key}&order=DESC`), [...ascending].reverse());
    }
    const ids = (await list(`term=${tag}&sortBy=id&order=ASC`)).body.data.map((e: { id: string }) => e.id);
    assert.deepEqual(ids, [...ids].sort());
  });

  it('pages with limit and page, counts the total, and skips the count with total=false', async () => {
    const tag = word();
    for (const n of [1, 2, 3, 4, 5]) await publish(tag, `e${n}`);
    const page = async (query: string) => (await list(`term=${tag}&sortBy=name&order=ASC&${query}`)).body;
    const first = await page('limit=2&page=1');
    assert.deepEqual(first.data.map((e: { name: string }) => e.name), [`${tag} e1`, `${tag} e2`]);
    assert.equal(first.total, 5);
    assert.deepEqual((await page('limit=2&page=3')).data.map((e: { name: string }) => e.name), [`${tag} e5`]);
    assert.deepEqual((await page('limit=2&page=4')).data, []);
    const uncounted = await page('limit=2&total=false');
    assert.equal(uncounted.total, null);
    assert.equal(uncounted.totalCapped, false);
    assert.equal((await page('limit=100')).data.length, 5);
  });

  it('returns 10 events by default', async () => {
    const tag = word();
    for (let n = 0; n < 11; n += 1) await publish(tag, `e${n}`);
    const body = (await list(`term=${tag}`)).body;
    assert.equal(body.data.length, 10);
    assert.equal(body.total, 11);
  });

  it('caps the count and says so', async () => {
    const tag = word();
    for (const n of [1, 2, 3]) await publish(tag, `e${n}`);
    const now = new Date(server.ctx.clock.nowMs());
    const query = { now, since24h: now, includeDraft: false, includeProtected: false, term: tag, sortBy: 'name' as const, order: 'ASC' as const, offset: 0, limit: 10 };
    assert.deepEqual({ ...(await listEvents(server.ctx.store.db, { ...query, countCap: 2 })), rows: [] }, { rows: [], total: 2, totalCapped: true });
    assert.deepEqual({ ...(await listEvents(server.ctx.store.db, { ...query, countCap: 3 })), rows: [] }, { rows: [], total: 3, totalCapped: false });
  });

  it('rejects out-of-range and malformed queries with 400 and the error body', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'page=100000000000000000&limit=100', 'limit=abc', 'sortBy=popularity', 'order=UP', 'eventStatus=OPEN',
      'category=nope', 'tag=1234', 'ends=TOMORROW', 'addedWithin=LAST_YEAR', 'endDateFrom=yesterday', 'includeVolume=maybe', 'protected=2', 'single=yes']) {
      expectError(await list(query), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('GET /events time filters', () => {
  let server: TestServer;
  // 2030-01-02 is a Wednesday.
  const NOW = Date.parse('2030-01-02T12:00:00.000Z');
  before(async () => {
    server = await startTestServer();
    assert.equal((await post(server.api('/admin/clock'), { now: new Date(NOW).toISOString() }, server.adminHeaders)).status, 200);
  });
  after(async () => { await server.close(); });

  const names = async (query: string) => {
    const response = await get(server.api(`/events?sortBy=name&order=ASC&${query}`));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.data.map((e: { name: string }) => e.name);
  };

  it('filters by ends, end-date bounds and addedWithin, and derives ENDED', async () => {
    const tag = word();
    const make = (suffix: string, endDate: string) => createPublishedEvent(server, { name: `${tag} ${suffix}`, endDate, markets: 1 });
    await createPublishedEvent(server, { name: `${tag} past`, startDate: '2029-12-01T00:00:00.000Z', endDate: '2030-01-01T00:00:00.000Z' });
    await make('today', '2030-01-02T20:00:00.000Z');
    await make('sunday', '2030-01-05T23:00:00.000Z');
    await make('month', '2030-01-20T00:00:00.000Z');
    await make('february', '2030-02-05T00:00:00.000Z');
    assert.deepEqual(await names(`term=${tag}&ends=TODAY`), [`${tag} today`]);
    assert.deepEqual(await names(`term=${tag}&ends=THIS_WEEK`), [`${tag} sunday`, `${tag} today`]);
    assert.deepEqual(await names(`term=${tag}&ends=THIS_MONTH`), [`${tag} month`, `${tag} sunday`, `${tag} today`]);
    assert.deepEqual(await names(`term=${tag}&endDateFrom=2030-01-05T23:00:00.000Z&endDateTo=2030-01-20T00:00:00.000Z`), [`${tag} month`, `${tag} sunday`]);
    assert.deepEqual(await names(`term=${tag}&eventStatus=ENDED`), [`${tag} past`]);
    assert.equal((await names(`term=${tag}&eventStatus=ACTIVE`)).length, 4);

    await post(server.api('/admin/clock'), { advanceMs: 3 * 86_400_000 }, server.adminHeaders);
    await make('new', '2030-03-01T00:00:00.000Z');
    assert.deepEqual(await names(`term=${tag}&addedWithin=LAST_24H`), [`${tag} new`]);
    assert.equal((await names(`term=${tag}&addedWithin=LAST_7D`)).length, 6);
    await post(server.api('/admin/clock'), { advanceMs: 5 * 86_400_000 }, server.adminHeaders);
    assert.deepEqual(await names(`term=${tag}&addedWithin=LAST_7D`), [`${tag} new`]);
    assert.equal((await names(`term=${tag}&addedWithin=LAST_30D`)).length, 6);
  });
});
