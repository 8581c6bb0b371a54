import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, parseUnits, type ExchangeClient } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited } from '../helpers/trader.ts';
import { adminClient, publishedMarkets, thrown, traderClient } from './helpers.ts';

/**
 * The SDK's portfolio and profile calls over real trading (no fees):
 * m1: Alice's BUY token1 10 @ 0.6 rests, Bob takes with BUY token2 10 @ 0.4 (a MINT): Alice holds
 *     10 token1 for 6, latest 0.6 (the last trade), worth 6.
 * m2: Alice splits 5: 5 of each for 2.5 each, untraded and without a book, so each at 0.5.
 */
describe('SDK portfolio and public profiles against a real server', () => {
  let server: TestServer;
  let alice: ExchangeClient;
  let bob: ExchangeClient;
  let aliceName: string;
  let m1: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];
  let m2: typeof m1;

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' });
    const admin = adminClient(server);
    [m1, m2] = (await publishedMarkets(admin, { markets: 2 })).markets as [typeof m1, typeof m1];
    [alice, bob] = await Promise.all([traderClient(server, '100'), traderClient(server, '100')]);
    aliceName = `Alice_${crypto.randomUUID().slice(0, 8)}`;
    await alice.account.update({ displayName: aliceName });
    assert.equal((await alice.orders.place({ tokenId: m1.tokenId1, side: 'BUY', price: '0.6', size: '10' })).status, 'PENDING');
    assert.equal((await bob.orders.place({ tokenId: m1.tokenId2, side: 'BUY', price: '0.4', size: '10' })).status, 'EXECUTED');
    await server.ctx.trading.engine.settle();
    await admin.admin.clock({ advanceMs: 1_000 });
    await alice.markets.split(m2.id, '5');
  });
  after(() => closeAudited(server));

  it('pages the held positions with their values, sorted and filtered as asked', async () => {
    const page = await alice.portfolio.positions();
    assert.deepEqual([page.first, page.last, page.limit, page.total], [1, 3, 10, 3]);
    assert.deepEqual(page.data.map((p) => [p.tokenId, p.amount, p.acquisitionPrice, p.latest, p.current, p.initial, p.return]).sort(), [
      [m1.tokenId1, '10', '0.6', '0.6', '6', '6', '0'],
      [m2.tokenId1, '5', '0.5', '0.5', '2.5', '2.5', '0'],
      [m2.tokenId2, '5', '0.5', '0.5', '2.5', '2.5', '0'],
    ].sort());
    const top = await alice.portfolio.positions({ limit: 1, sortBy: 'current', order: 'DESC' });
    assert.deepEqual([top.total, top.data.map((p) => p.market_uuid)], [3, [m1.id]]);
    assert.deepEqual((await alice.portfolio.positions({ id: m2.id })).data.map((p) => p.outcomeIndex).sort(), [0, 1]);
    assert.deepEqual((await bob.portfolio.positions()).data.map((p) => [p.tokenId, p.amount]), [[m1.tokenId2, '10']]);
  });

  it('values the positions of the caller, of one market, and of another user', async () => {
    const mine = await alice.portfolio.value();
    assert.deepEqual(mine, { user: mine.user, value: 11 });
    assert.equal((await alice.portfolio.value({ markets: [m2.id] })).value, 5);
    // Bob's 10 token2 at 0.4, the complement of the last trade.
    assert.equal((await alice.portfolio.value({ user: (await bob.account.get()).proxyWallet })).value, 4);
  });

  it("lists the caller's activity by type and counts the markets traded", async () => {
    const all = await alice.portfolio.activity();
    assert.deepEqual(all.data.map((r) => [r.type, r.id, r.isMultiMarket]), [['SPLIT', m2.id, true], ['BUY', m1.id, true]]);
    assert.equal(all.total, 2);
    const splits = await alice.portfolio.activity({ types: ['SPLIT', 'MERGE'], total: false });
    assert.deepEqual([splits.data.map((r) => r.type), splits.total], [['SPLIT'], null]);
    assert.deepEqual((await alice.portfolio.activity({ market: m1.id, limit: 1 })).data.map((r) => r.price), ['0.6']);
    assert.equal(await alice.portfolio.tradedCount(), 1);
    assert.equal(await bob.portfolio.tradedCount(), 1);
  });

  it('lists the mergeable markets and merges a batch in one transaction', async () => {
    assert.deepEqual((await alice.portfolio.mergeable()).map((p) => [p.marketId, p.tokenId1, p.tokenId2]), [[m2.id, m2.tokenId1, m2.tokenId2]]);
    assert.deepEqual(await bob.portfolio.mergeable(), []);
    const before = parseUnits((await alice.account.balance()).collateral.balance)!;
    const merged = await alice.portfolio.mergeMany([m2.id, m1.id]);
    assert.match(merged.txHash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual([merged.included, merged.excluded], [[m2.id], [{ marketId: m1.id, reason: 'only-one-side' }]]);
    assert.equal(parseUnits((await alice.account.balance()).collateral.balance)! - before, 5_000_000n);
    assert.deepEqual(await alice.portfolio.mergeable(), []);
    assert.deepEqual((await alice.portfolio.activity({ types: ['MERGE'] })).data.map((r) => [r.type, r.id]), [['MERGE', m2.id]]);
  });

  it('reads a public profile by name in any letter case', async () => {
    const summary = await bob.profiles.summary(aliceName.toUpperCase());
    assert.deepEqual([summary.positionsValue, summary.predictions, summary.allTimePnl], ['6', 1, '0']);
    const active = await bob.profiles.activePositions(aliceName);
    assert.deepEqual(active.map((p) => [p.id, p.side, p.avg, p.shares, p.now, p.value]), [[m1.tokenId1, 'SIDE_A', 60, 10, 60, '6']]);
    // The merge closed both m2 tokens at what the split paid: 50 cents in and out.
    const closed = await bob.profiles.closedPositions(aliceName);
    assert.deepEqual(closed.map((p) => [p.id, p.avg, p.exit, p.pnl]).sort(), [[m2.tokenId1, 50, 50, '0'], [m2.tokenId2, 50, 50, '0']].sort());
    const history = await bob.profiles.pnlHistory(aliceName, '1W');
    assert.deepEqual([history.range, history.value], ['1W', '0']);
    const activity = await bob.profiles.activity(aliceName);
    assert.deepEqual(activity.map((a) => [a.action, a.side, a.amount, a.price]), [['bought', 'SIDE_A', '6', 60]]);
  });

  it('refuses bad parameters (400), missing or bad credentials (401), and unknown profiles (404)', async () => {
    const tooMany = await thrown(alice.portfolio.positions({ limit: 1000 }));
    assert.deepEqual([tooMany.status, tooMany.code], [400, 'VALIDATION_FAILED']);
    const badType = await thrown(alice.portfolio.activity({ types: ['BOUGHT'] }));
    assert.deepEqual([badType.status, badType.code], [400, 'VALIDATION_FAILED']);
    const empty = await thrown(alice.portfolio.mergeMany([]));
    assert.deepEqual([empty.status, empty.code], [400, 'VALIDATION_FAILED']);
    const twice = await thrown(alice.portfolio.mergeMany([m2.id, m2.id]));
    assert.deepEqual([twice.status, twice.code], [400, 'VALIDATION_FAILED']);
    const anonymous = createClient({ baseUrl: server.url });
    assert.equal((await thrown(anonymous.portfolio.positions())).code, 'MISSING_CREDENTIALS');
    const forged = createClient({ baseUrl: server.url, credentials: { apiKey: { ...alice.credentials.apiKey!, secret: bob.credentials.apiKey!.secret } } });
    const refused = await thrown(forged.portfolio.tradedCount());
    assert.deepEqual([refused.status, refused.code], [401, 'UNAUTHORIZED']);
    const unknown = await thrown(anonymous.profiles.summary('nobody-has-this-name'));
    assert.deepEqual([unknown.status, unknown.code], [404, 'NOT_FOUND']);
    const badRange = await thrown(anonymous.profiles.pnlHistory(aliceName, '2D' as '1D'));
    assert.deepEqual([badRange.status, badRange.code], [400, 'VALIDATION_FAILED']);
  });
});
