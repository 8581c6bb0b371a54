import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createDraftEvent, createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { resolveMarket } from '../helpers/resolution.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, expectTrade, newTrader, type OrderSpec, type Trader } from '../helpers/trader.ts';

/**
 * GET /markets/activity and /markets/activity/{marketId} over real activity: on m1 a MINT (Bob
 * takes token 2 at 0.4 from Alice's token 1 bid at 0.6), a TRANSFER (Bob sells token 2 to Alice at
 * 0.5), Carol's split of 5 and merge of all 5; on m2 a MINT between Alice and Carol, then a TIE
 * resolution and Carol's redeem. Fees: taker 1%, maker 0.5% of min(p, 1 − p) × size.
 */
describe('market data: market activity', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let m1: PublishedMarket;
  let m2: PublishedMarket;
  let splitHash: string;
  let mergeHash: string;
  let redeemHash: string;
  const ofMarket = (id: string, query = '') => get(server.api(`/markets/activity/${id}${query}`));
  const global = (query = '') => get(server.api(`/markets/activity${query}`));
  const advance = (advanceMs: number) => post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders);
  const wallet = (t: Trader) => t.proxyWallet.toLowerCase();
  const order = (spec: OrderSpec): OrderSpec => ({ ...spec, feeRateBps: 100 });

  const trade = (maker: Trader, taker: Trader, makerSpec: OrderSpec, takerSpec: OrderSpec) => expectTrade(server, maker, taker, order(makerSpec), order(takerSpec));

  /** Every row of a route, walked with cursors `limit` at a time. */
  async function walk(path: string, query: string, limit: number) {
    const rows: any[] = [];
    let cursor = '';
    for (let pages = 0; pages < 100; pages += 1) {
      const { status, body } = await get(server.api(`${path}?limit=${limit}&cursor=${encodeURIComponent(cursor)}${query}`));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(Object.keys(body).sort(), ['data', 'hasMore', 'nextCursor']);
      rows.push(...body.data);
      if (!body.hasMore) {
        assert.equal(body.nextCursor, null);
        return rows;
      }
      cursor = body.nextCursor;
    }
    throw new Error('too many pages');
  }

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    [alice, bob, carol] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    const published = await createPublishedEvent(server, { markets: 2, orderFeeRateBps: 100, passiveOrderFeeRateBps: 50 });
    [m1, m2] = published.markets as [PublishedMarket, PublishedMarket];
    await trade(alice, bob, { tokenId: m1.tokenId1, side: 'BUY', price: '0.6', size: '10' }, { tokenId: m1.tokenId2, side: 'BUY', price: '0.45', size: '10' });
    // Bob sells NO tokens the MINT gave him: on a chain (TEST_CHAIN) he holds them once it is mined.
    await server.ctx.trading.engine.settle();
    await advance(1_000);
    await trade(alice, bob, { tokenId: m1.tokenId2, side: 'BUY', price: '0.5', size: '4' }, { tokenId: m1.tokenId2, side: 'SELL', price: '0.5', size: '4' });
    await server.ctx.trading.engine.settle();
    await advance(1_000);
    const split = await carol.call('POST', `/markets/${m1.id}/split`, { amount: '5' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    splitHash = split.body.txHash;
    await advance(1_000);
    const merged = await carol.call('POST', '/markets/merge-positions/batch', { marketIds: [m1.id] });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    mergeHash = merged.body.txHash;
    await advance(1_000);
    await trade(alice, carol, { tokenId: m2.tokenId1, side: 'BUY', price: '0.3', size: '10' }, { tokenId: m2.tokenId2, side: 'BUY', price: '0.7', size: '10' });
    await server.ctx.trading.engine.settle();
    await advance(1_000);
    await resolveMarket(server, m2.id, 'TIE');
    const redeemed = await carol.call('POST', '/markets/redeem-positions/batch', { marketIds: [m2.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    redeemHash = redeemed.body.txHash;
    await server.ctx.trading.engine.settle();
  });
  after(async () => {
    await server?.close();
  });

  it('lists every party of every trade, and the splits and merges, newest first with the market fields', async () => {
    const { status, body } = await ofMarket(m1.id);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual([body.total, body.totalCapped, body.page, body.limit, body.hasMore], [6, false, 1, 10, false]);
    const summary = body.data.map((r: any) => [r.type, r.proxy_address, r.amount, r.price, r.fee, r.outcomeIndex]);
    assert.deepEqual(summary, [
      ['MERGE', wallet(carol), 5, '1', 0, undefined],
      ['SPLIT', wallet(carol), 5, '1', 0, undefined],
      // Same time, taker first (its key sorts after the maker's).
      ['SELL', wallet(bob), 4, '0.5', 0.02, 1],
      ['BUY', wallet(alice), 4, '0.5', 0.01, 1],
      ['BUY', wallet(bob), 10, '0.4', 0.04, 1],
      ['BUY', wallet(alice), 10, '0.6', 0.02, 0],
    ]);
    const row = body.data[0];
    assert.deepEqual(
      [row.id, row.name, row.slug, row.tokenId1, row.tokenId2, row.conditionId, row.outcome1, row.outcome2, row.isResolved, row.protected],
      [m1.id, m1.name, m1.slug, m1.tokenId1, m1.tokenId2, m1.conditionId, m1.outcome1, m1.outcome2, false, false],
    );
    assert.deepEqual([row.parent_collection_id, row.partition], [`0x${'0'.repeat(64)}`, [1, 2]]);
    assert.equal(typeof row.description, 'string');
    for (const field of ['createdAt', 'updatedAt', 'startDate', 'endDate']) assert.ok(row[field] === null || !Number.isNaN(Date.parse(row[field])), field);
    assert.match(row.createdBy, /^[0-9a-f-]{36}$/);
    assert.deepEqual([body.data[0].hash, body.data[1].hash], [mergeHash, splitHash]);
    const timestamps = body.data.map((r: any) => r.timestamp);
    assert.ok(timestamps.every((t: number) => Number.isInteger(t) && t < 1e11), 'Unix seconds');
    assert.deepEqual(timestamps, [...timestamps].sort((a: number, b: number) => b - a));
    assert.ok(timestamps[0] - timestamps[5] >= 2, 'the clock moved between the trades and the merge');
  });

  it('gives each trade row the hash of its settlement transaction', async () => {
    const trades = (await get(server.api(`/trades?market=${m1.id}`))).body.data;
    const rows = (await ofMarket(m1.id)).body.data.filter((r: any) => r.type === 'BUY' || r.type === 'SELL');
    assert.deepEqual(new Set(rows.map((r: any) => r.hash)), new Set(trades.map((t: any) => t.txHash)));
    for (const t of trades) assert.equal(rows.filter((r: any) => r.hash === t.txHash).length, 2, 'one row per party');
  });

  it('shows a redeem with its payout per token; a new trade adds two rows', async () => {
    const { body } = await ofMarket(m2.id);
    assert.deepEqual(body.data.map((r: any) => [r.type, r.proxy_address, r.amount, r.price]).slice(0, 1), [['REDEEM', wallet(carol), 10, '0.5']]);
    assert.equal(body.data[0].hash, redeemHash);
    assert.equal(body.total, 3);
    // One more trade on m1: two more rows once settled.
    await trade(alice, bob, { tokenId: m1.tokenId2, side: 'BUY', price: '0.2', size: '1' }, { tokenId: m1.tokenId2, side: 'SELL', price: '0.2', size: '1' });
    await server.ctx.trading.engine.settle();
    assert.equal((await ofMarket(m1.id)).body.total, 8);
    await expectAuditClean(server);
  });

  it('filters one market by proxyAddress (any case) and by SPLIT, MERGE or REDEEM', async () => {
    const bobs = (await ofMarket(m1.id, `?proxyAddress=${bob.proxyWallet.toUpperCase().replace('0X', '0x')}`)).body;
    assert.ok(bobs.data.length === 3 && bobs.data.every((r: any) => r.proxy_address === wallet(bob)));
    assert.equal(bobs.total, 3);
    const carols = (await ofMarket(m1.id, `?proxyAddress=${carol.proxyWallet}`)).body.data;
    assert.deepEqual(carols.map((r: any) => r.type), ['MERGE', 'SPLIT']);
    assert.deepEqual((await ofMarket(m1.id, '?type=SPLIT')).body.data.map((r: any) => r.hash), [splitHash]);
    assert.deepEqual((await ofMarket(m1.id, '?type=MERGE')).body.data.map((r: any) => r.hash), [mergeHash]);
    assert.deepEqual((await ofMarket(m1.id, '?type=REDEEM')).body, { data: [], total: 0, totalCapped: false, page: 1, limit: 10, hasMore: false });
    assert.equal((await ofMarket(m1.id, `?type=SPLIT&proxyAddress=${bob.proxyWallet}`)).body.total, 0);
  });

  it('pages one market with page and limit, total=false, amount sorts and cursors', async () => {
    const all = (await ofMarket(m1.id)).body.data;
    const pages = [];
    for (const page of [1, 2, 3]) {
      const { body } = await ofMarket(m1.id, `?limit=3&page=${page}&total=false`);
      assert.equal(body.total, null);
      assert.equal(body.totalCapped, undefined);
      assert.equal(body.hasMore, page < 3);
      pages.push(...body.data);
    }
    assert.deepEqual(pages, all);
    const ascending = (await ofMarket(m1.id, '?sortBy=usersactivityview.timestamp&order=ASC')).body.data;
    assert.deepEqual(ascending, [...all].reverse());
    const byAmount = (await ofMarket(m1.id, '?sortBy=amount&order=ASC')).body.data.map((r: any) => r.amount);
    assert.deepEqual(byAmount, [...byAmount].sort((a: number, b: number) => a - b));
    assert.deepEqual(await walk(`/markets/activity/${m1.id}`, '', 3), all);
    assert.deepEqual(await walk(`/markets/activity/${m1.id}`, '&sortBy=usersactivityview.amount&order=DESC', 2), (await ofMarket(m1.id, '?sortBy=usersactivityview.amount')).body.data);
  });

  it('lists every market with type and name filters, 5 rows and no total by default', async () => {
    const first = (await global()).body;
    assert.deepEqual([first.data.length, first.total, first.totalCapped, first.page, first.limit, first.hasMore], [5, null, undefined, 1, 5, true]);
    const counted = (await global('?total=true&limit=100')).body;
    assert.equal(counted.total, 11);
    assert.equal(counted.data.length, 11);
    assert.deepEqual(counted.data.slice(0, 5), first.data);
    const buys = (await global('?type=BUY&limit=100')).body.data;
    assert.ok(buys.length === 6 && buys.every((r: any) => r.type === 'BUY'));
    const sells = (await global('?type=SELL&limit=100')).body.data;
    assert.ok(sells.length === 2 && sells.every((r: any) => r.type === 'SELL'));
    const m2Rows = (await global(`?limit=100&total=true&name=${encodeURIComponent(m2.name.slice(-8).toUpperCase())}`)).body;
    assert.ok(m2Rows.total === 3 && m2Rows.data.every((r: any) => r.id === m2.id), JSON.stringify(m2Rows));
    assert.equal((await global('?name=%25&total=true')).body.total, 0, 'LIKE wildcards match literally');
    assert.deepEqual((await global('?total=true&limit=100&name=')).body, counted, 'an empty name is no filter');
    assert.deepEqual(await walk('/markets/activity', '', 4), counted.data);
    assert.deepEqual(await walk('/markets/activity', '&type=BUY', 4), buys);
  });

  it('rejects bad queries with 400, and unknown or draft markets with 404', async () => {
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=100000000000000000', '?type=BUY', '?type=split', '?proxyAddress=0x123', '?sortBy=price', '?order=desc', '?total=maybe']) {
      expectError(await ofMarket(m1.id, query), 400, 'VALIDATION_FAILED');
    }
    for (const query of ['?type=SPLIT', '?limit=0', '?page=-1', '?sortBy=nope', '?cursor=not-a-cursor', `?cursor=${'x'.repeat(600)}`]) {
      expectError(await global(query), 400, 'VALIDATION_FAILED');
    }
    const { body } = await global('?limit=2&cursor=');
    expectError(await global(`?limit=2&order=ASC&cursor=${body.nextCursor}`), 400, 'VALIDATION_FAILED');
    expectError(await global(`?limit=2&sortBy=amount&cursor=${body.nextCursor}`), 400, 'VALIDATION_FAILED');
    const forged = Buffer.from(JSON.stringify(['timestamp', 'DESC', "1' OR 1=1", 'x'])).toString('base64url');
    expectError(await global(`?cursor=${forged}`), 400, 'VALIDATION_FAILED');
    expectError(await ofMarket('not-a-uuid'), 400, 'VALIDATION_FAILED');
    expectError(await ofMarket(randomUUID()), 404, 'NOT_FOUND');
    const draft = await createDraftEvent(server);
    expectError(await ofMarket(draft.markets[0]!.id), 404, 'NOT_FOUND');
  });

  it('reaches only the first 1,000 rows in offset mode, and every row with cursors', async () => {
    const dave = await newTrader(server, { fund: '20' });
    // A hundred at a time: the engine journals them in a few records, not a thousand.
    for (let i = 0; i < 1_000; i += 100) {
      const splits = await Promise.all(Array.from({ length: 100 }, () => server.ctx.trading.engine.split({ account: wallet(dave), marketId: m1.id, amount: 10_000n })));
      assert.ok(splits.every((split) => split.ok));
    }
    const total = 1_000 + 11;
    assert.equal((await global('?total=true')).body.total, total);
    const tenth = (await global('?limit=100&page=10')).body;
    assert.deepEqual([tenth.data.length, tenth.hasMore], [100, false]);
    const straddling = (await global('?limit=30&page=34')).body;
    assert.deepEqual([straddling.data.length, straddling.hasMore], [10, false]);
    assert.deepEqual((await global('?limit=100&page=11')).body.data, []);
    const walked = await walk('/markets/activity', '', 100);
    assert.equal(walked.length, total);
    assert.equal(new Set(walked.map((r: any) => `${r.hash}:${r.proxy_address}`)).size, total, 'each row once');
    assert.equal((await ofMarket(m1.id, '?limit=100&page=11')).body.data.length, 8, 'one market pages past 1,000');
  });
});
