import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { signedRequest } from '../helpers/auth-client.ts';
import { createPublishedEvent, eventInput, type PublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, expectTrade, newTrader, type OrderSpec, type Trader } from '../helpers/trader.ts';

/**
 * GET /markets/user-activity and /markets/traded-count over real activity, one second apart each:
 * on single-market event A, a MINT (Alice's YES bid at 0.6 taken by Bob's NO at 0.4, size 10) and
 * a TRANSFER (Bob sells 4 NO to Alice's bid at 0.5); on two-market event B (mB named apart from its event), Alice splits 5 on mB
 * and merges it back, then splits 2 on mC, which resolves YES, and redeems (4 tokens for 2).
 * Fees: taker 1%, maker 0.5% of min(p, 1 − p) × size.
 */
describe('portfolio: user activity and traded count', () => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let eventA: PublishedEvent;
  let eventB: PublishedEvent;
  let mA: PublishedMarket;
  let mB: PublishedMarket;
  let mC: PublishedMarket;
  let mergeHash: string;
  let redeemHash: string;
  const advance = async (advanceMs: number) => assert.equal((await post(server.api('/admin/clock'), { advanceMs }, server.adminHeaders)).status, 200);
  const order = (spec: OrderSpec): OrderSpec => ({ ...spec, feeRateBps: 100 });
  const activity = async (trader: Trader, query = '') => {
    const response = await trader.call('GET', `/markets/user-activity${query}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };
  const summary = (rows: any[]) => rows.map((r) => [r.type, r.id, r.amount, r.price, r.fee]);
  const tradedCount = async (trader: Trader) => {
    const response = await trader.call('GET', '/markets/traded-count');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };

  const trade = (maker: Trader, taker: Trader, makerSpec: OrderSpec, takerSpec: OrderSpec) => expectTrade(server, maker, taker, order(makerSpec), order(takerSpec));

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    [alice, bob] = await Promise.all([newTrader(server, { fund: '1000' }), newTrader(server, { fund: '1000' })]);
    const fees = { orderFeeRateBps: 100, passiveOrderFeeRateBps: 50 };
    eventA = await createPublishedEvent(server, fees);
    // mB's name does not contain its event's, so `term` can be seen matching the event's name alone.
    const inputB = eventInput({ ...fees, markets: 2, liveness: 600 });
    inputB.markets[0]!.name = 'Unrelated question';
    const draftB = await post(server.api('/admin/events'), inputB, server.adminHeaders);
    const publishedB = await post(server.api(`/admin/events/${draftB.body.id}/publish`), undefined, server.adminHeaders);
    assert.equal(publishedB.status, 200, JSON.stringify(publishedB.body));
    eventB = { event: publishedB.body, markets: publishedB.body.markets };
    mA = eventA.markets[0]!;
    [mB, mC] = eventB.markets as [PublishedMarket, PublishedMarket];
    await trade(alice, bob, { tokenId: mA.tokenId1, side: 'BUY', price: '0.6', size: '10' }, { tokenId: mA.tokenId2, side: 'BUY', price: '0.4', size: '10' });
    // Bob sells NO tokens the MINT gave him: on a chain (TEST_CHAIN) he holds them once it is mined.
    await server.ctx.trading.engine.settle();
    await advance(1_000);
    await trade(alice, bob, { tokenId: mA.tokenId2, side: 'BUY', price: '0.5', size: '4' }, { tokenId: mA.tokenId2, side: 'SELL', price: '0.5', size: '4' });
    await server.ctx.trading.engine.settle();
    await advance(1_000);
    assert.equal((await alice.call('POST', `/markets/${mB.id}/split`, { amount: '5' })).status, 200);
    await advance(1_000);
    mergeHash = (await alice.call('POST', '/markets/merge-positions/batch', { marketIds: [mB.id] })).body.txHash;
    await advance(1_000);
    assert.equal((await alice.call('POST', `/markets/${mC.id}/split`, { amount: '2' })).status, 200);
    assert.equal((await post(server.api(`/admin/markets/${mC.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
    await advance(600_000);
    const redeemed = await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [mC.id] });
    assert.deepEqual(redeemed.body.included, [mC.id], JSON.stringify(redeemed.body));
    redeemHash = redeemed.body.txHash;
  });
  after(() => closeAudited(server));

  it('lists the caller\'s BUY, SELL, SPLIT, MERGE and REDEEM rows newest first, 10 a page with a total', async () => {
    const body = await activity(alice);
    assert.deepEqual([body.total, body.totalCapped, body.page, body.limit, body.hasMore], [6, false, 1, 10, false]);
    assert.deepEqual(summary(body.data), [
      ['REDEEM', mC.id, 4, '0.5', 0],
      ['SPLIT', mC.id, 2, '1', 0],
      ['MERGE', mB.id, 5, '1', 0],
      ['SPLIT', mB.id, 5, '1', 0],
      // Alice made both trades: 0.5% of min(p, 1 − p) × size.
      ['BUY', mA.id, 4, '0.5', 0.01],
      ['BUY', mA.id, 10, '0.6', 0.02],
    ]);
    assert.deepEqual([body.data[0].hash, body.data[2].hash], [redeemHash, mergeHash]);
    assert.ok(body.data.every((r: any) => r.proxy_address === alice.proxyWallet.toLowerCase()));
    const timestamps = body.data.map((r: any) => r.timestamp);
    assert.deepEqual(timestamps, [...timestamps].sort((a: number, b: number) => b - a));
    // The user variant: display name (null: use name), the event, whether it has several markets.
    const [redeem, , , , buy] = body.data;
    assert.deepEqual([redeem.displayName, redeem.isMultiMarket, redeem.eventId, redeem.eventName, redeem.isResolved], [null, true, eventB.event.id, eventB.event.name, true]);
    assert.deepEqual([buy.displayName, buy.isMultiMarket, buy.eventId, buy.eventName, buy.outcomeIndex, buy.name], [null, false, eventA.event.id, eventA.event.name, 1, mA.name]);
  });

  it('shows each user only their own rows', async () => {
    const bobs = await activity(bob);
    assert.equal(bobs.total, 2);
    assert.deepEqual(summary(bobs.data), [['SELL', mA.id, 4, '0.5', 0.02], ['BUY', mA.id, 10, '0.4', 0.04]]);
    assert.ok(bobs.data.every((r: any) => r.proxy_address === bob.proxyWallet.toLowerCase()));
    assert.equal((await activity(bob, `?market=${mB.id}`)).total, 0, "Alice's market shows nothing of hers to Bob");
    const newcomer = await newTrader(server);
    assert.deepEqual(await activity(newcomer), { data: [], total: 0, totalCapped: false, page: 1, limit: 10, hasMore: false });
  });

  it('filters by types (comma-separated or repeated), market, name, term and a time window', async () => {
    const types = async (query: string) => (await activity(alice, query)).data.map((r: any) => r.type);
    assert.deepEqual(await types('?types=BUY'), ['BUY', 'BUY']);
    assert.deepEqual(await types('?types=SELL'), []);
    assert.deepEqual(await types('?types=MERGE,REDEEM'), ['REDEEM', 'MERGE']);
    assert.deepEqual(await types('?types=SPLIT&types=BUY'), ['SPLIT', 'SPLIT', 'BUY', 'BUY']);
    assert.deepEqual(await types('?types=SPLIT,BUY&types=SPLIT'), ['SPLIT', 'SPLIT', 'BUY', 'BUY']);
    assert.deepEqual(await types(`?market=${mB.id}`), ['MERGE', 'SPLIT']);
    assert.deepEqual(await types(`?market=${mB.id.toUpperCase()}`), ['MERGE', 'SPLIT']);
    assert.equal((await activity(alice, `?market=${randomUUID()}`)).total, 0);
    assert.deepEqual(await types(`?name=${encodeURIComponent(mA.name.slice(-6).toUpperCase())}`), ['BUY', 'BUY']);
    // term matches the market's name or slug, or the event's name (mB's name does not hold it).
    const eventTerm = encodeURIComponent(eventB.event.name.slice(-6).toLowerCase());
    assert.deepEqual(await types(`?term=${eventTerm}`), ['REDEEM', 'SPLIT', 'MERGE', 'SPLIT']);
    assert.deepEqual(await types('?term=unrelated'), ['MERGE', 'SPLIT']);
    assert.deepEqual(await types(`?term=${encodeURIComponent(mA.slug.slice(-8))}`), ['BUY', 'BUY']);
    assert.deepEqual(await types(`?name=${eventTerm}`), ['REDEEM', 'SPLIT'], 'name matches the market only');
    assert.deepEqual(await types('?term=%25'), [], 'LIKE wildcards match literally');
    const rows = (await activity(alice)).data;
    const mergeSecond = rows[2].timestamp;
    assert.deepEqual(await types(`?fromTimestamp=${mergeSecond}&toTimestamp=${mergeSecond}`), ['MERGE']);
    assert.deepEqual(await types(`?fromTimestamp=${mergeSecond}`), ['REDEEM', 'SPLIT', 'MERGE']);
    assert.deepEqual(await types(`?toTimestamp=${mergeSecond - 1}`), ['SPLIT', 'BUY', 'BUY']);
    assert.equal((await activity(alice, `?toTimestamp=${mergeSecond - 1}&types=MERGE`)).total, 0);
  });

  it('pages with page and limit, sorts by timestamp or amount, counts only when asked', async () => {
    const all = (await activity(alice)).data;
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = await activity(alice, `?limit=2&page=${page}&total=false`);
      assert.deepEqual([body.total, body.totalCapped, body.hasMore], [null, undefined, page < 3]);
      pages.push(...body.data);
    }
    assert.deepEqual(pages, all);
    assert.deepEqual((await activity(alice, '?page=4&limit=2')).data, []);
    assert.deepEqual((await activity(alice, '?order=ASC')).data, [...all].reverse());
    const byAmount = (await activity(alice, '?sortBy=usersactivityview.amount&order=ASC')).data.map((r: any) => r.amount);
    assert.deepEqual(byAmount, [2, 4, 4, 5, 5, 10]);
  });

  it('rejects bad queries with 400', async () => {
    for (const query of [
      `?term=${'x'.repeat(51)}`, '?types=buy', '?types=BUY,NOPE', '?market=not-a-uuid', '?fromTimestamp=-1', '?toTimestamp=soon',
      '?fromTimestamp=20&toTimestamp=10', '?limit=0', '?limit=101', '?page=0', '?sortBy=price', '?order=desc', '?total=maybe',
      // A page whose offset would overflow the database's bigint was a 500.
      '?page=1000001', '?page=100000000000000000&limit=100',
      // A NUL cannot reach PostgreSQL text (was a 500).
      '?term=a%00b', '?name=a%00b',
    ]) {
      expectError(await alice.call('GET', `/markets/user-activity${query}`), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await alice.call('GET', `/markets/user-activity?term=${'x'.repeat(50)}`)).status, 200);
    assert.deepEqual((await activity(alice, '?page=1000000&limit=100')).data, []);
  });

  it('counts the distinct markets the caller traded in (splits, merges and redeems are not trades)', async () => {
    assert.equal(await tradedCount(alice), 1);
    assert.equal(await tradedCount(bob), 1);
    await trade(bob, alice, { tokenId: mB.tokenId1, side: 'BUY', price: '0.3', size: '2' }, { tokenId: mB.tokenId2, side: 'BUY', price: '0.7', size: '2' });
    await server.ctx.trading.engine.settle();
    assert.deepEqual([await tradedCount(alice), await tradedCount(bob)], [2, 2]);
    assert.equal(await tradedCount(await newTrader(server)), 0);
  });

  it('prices each market of a batch redeem by what that market paid (one transaction, two REDEEM rows)', async () => {
    const carol = await newTrader(server, { fund: '100' });
    const draft = await post(server.api('/admin/events'), eventInput({ markets: 2, liveness: 600, orderFeeRateBps: 100, passiveOrderFeeRateBps: 50 }), server.adminHeaders);
    const published = await post(server.api(`/admin/events/${draft.body.id}/publish`), undefined, server.adminHeaders);
    const [m1, m2] = published.body.markets as [PublishedMarket, PublishedMarket];
    // Carol holds 2 of each outcome of m1 (a split) and 10 YES of m2 only (a MINT with Bob).
    assert.equal((await carol.call('POST', `/markets/${m1.id}/split`, { amount: '2' })).status, 200);
    await trade(carol, bob, { tokenId: m2.tokenId1, side: 'BUY', price: '0.6', size: '10' }, { tokenId: m2.tokenId2, side: 'BUY', price: '0.4', size: '10' });
    await server.ctx.trading.engine.settle();
    for (const market of [m1, m2]) assert.equal((await post(server.api(`/admin/markets/${market.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
    await advance(600_000);
    const redeemed = await carol.call('POST', '/markets/redeem-positions/batch', { marketIds: [m1.id, m2.id] });
    assert.deepEqual([...redeemed.body.included].sort(), [m1.id, m2.id].sort(), JSON.stringify(redeemed.body));
    // m1 paid 2 for 4 tokens burned, m2 10 for 10.
    const redeems = (await activity(carol, '?types=REDEEM')).data.map((r: any) => [r.id, r.amount, r.price, r.hash]).sort();
    assert.deepEqual(redeems, [[m1.id, 4, '0.5', redeemed.body.txHash], [m2.id, 10, '1', redeemed.body.txHash]].sort());
    for (const market of [m1, m2]) {
      const rows = await get(server.api(`/markets/activity/${market.id}?type=REDEEM`));
      assert.equal(rows.status, 200, JSON.stringify(rows.body));
    }
    assert.equal((await get(server.api('/markets/activity'))).status, 200);
  });

  it('needs API-key HMAC: missing, a JWT, or a bad signature is 401', async () => {
    for (const path of ['/markets/user-activity', '/markets/traded-count']) {
      expectError(await get(server.api(path)), 401, 'UNAUTHORIZED');
      expectError(await get(server.api(path), { authorization: `Bearer ${alice.session.token}` }), 401, 'UNAUTHORIZED');
      expectError(await signedRequest(server, { ...alice.creds, secret: `${alice.creds.secret}x` }, 'GET', path), 401, 'UNAUTHORIZED');
    }
  });
});
