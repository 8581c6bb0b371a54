import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type ExchangeClient, type TradeActivity, type TradeFeed } from '../../src/client/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminClient, publishedMarkets, thrown, traderClient } from './helpers.ts';

const HOUR_MS = 3_600_000;

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

/**
 * The SDK's market-data, portfolio and oracle sections against a real server: three trades in one
 * market (alice buys YES at 0.6, bob takes NO at 0.4), then the market's whole resolution through
 * the oracle calls, then redemption.
 */
describe('SDK: trades, prices, activity, holders, positions, oracle and redeem', () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let alice: ExchangeClient;
  let bob: ExchangeClient;
  let carol: ExchangeClient;
  let feed: TradeFeed;
  let eventId: string;
  let market: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];
  let other: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];

  before(async () => {
    server = await startTestServer();
    admin = adminClient(server);
    const endDate = new Date((await admin.exchange()).serverTime + HOUR_MS).toISOString();
    const published = await publishedMarkets(admin, { oracle: { endDate, proposalBond: '10', liveness: 600 } });
    eventId = published.event.id;
    market = published.markets[0]!;
    other = (await publishedMarkets(admin)).markets[0]!;
    [alice, bob, carol] = await Promise.all([traderClient(server, '1000'), traderClient(server, '1000'), traderClient(server, '1000')]);
    feed = carol.trades.follow({ eventId });
    await feed.subscribed();
    for (const size of ['10', '5', '5']) {
      await alice.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.6', size });
      assert.equal((await bob.orders.place({ tokenId: market.tokenId2, side: 'BUY', price: '0.4', size })).status, 'EXECUTED');
    }
    await server.ctx.trading.engine.settle();
    // Ten minutes on, so the price history has a point per minute since the trades.
    await admin.admin.clock({ advanceMs: 10 * 60_000 });
  });
  after(async () => {
    feed?.close();
    await server.close();
  });

  it('lists trades and walks them page by page, newest first, through ties in time', async () => {
    const page = await carol.trades.list({ market: market.id });
    assert.equal(page.hasMore, false);
    // All three in one millisecond of the manual clock: their order is the id tie-break's.
    assert.deepEqual(page.data.map((t) => [t.tokenId, t.side, t.price, t.size, t.status]).sort(), [
      [market.tokenId2, 0, '0.4', '10', 'CONFIRMED'], [market.tokenId2, 0, '0.4', '5', 'CONFIRMED'], [market.tokenId2, 0, '0.4', '5', 'CONFIRMED'],
    ]);
    const walked = await collect(carol.trades.all({ market: market.id, limit: 1 }));
    assert.deepEqual(walked.map((t) => t.id), page.data.map((t) => t.id));
    const bobsAddress = (await bob.account.get()).proxyWallet;
    assert.equal((await carol.trades.list({ taker: bobsAddress })).data.length, 3);
    assert.deepEqual((await carol.trades.list({ market: other.id })).data, []);
  });

  it('reads trade activity, walks it, and follows it live over Socket.IO', async () => {
    const page = await carol.trades.activity({ eventId });
    assert.equal(page.data.length, 3);
    assert.ok(page.data.every((row) => row.side === 'bought' && row.marketId === market.id && row.eventId === eventId));
    const walked = await collect(carol.trades.allActivity({ eventId, limit: 2 }));
    assert.deepEqual(walked.map((row) => row.id), page.data.map((row) => row.id));

    const live: TradeActivity[] = [];
    for await (const row of feed) {
      live.push(row);
      if (live.length === 3) break;
    }
    assert.deepEqual(live.map((row) => row.id).sort(), page.data.map((row) => row.id).sort());
  });

  it('refuses a bad trades query and a bad live filter', async () => {
    const invalid = await thrown(carol.trades.list({ limit: 1000 }));
    assert.deepEqual([invalid.status, invalid.code], [400, 'VALIDATION_FAILED']);
    const beforeId = await thrown(carol.trades.activity({ beforeId: crypto.randomUUID() }));
    assert.deepEqual([beforeId.status, beforeId.code], [400, 'VALIDATION_FAILED']);
    const refused = carol.trades.follow({ eventId: 'not-a-uuid' });
    await assert.rejects(refused.subscribed(), /VALIDATION_FAILED/);
    assert.equal(refused.error?.code, 'VALIDATION_FAILED');
    assert.deepEqual(await collect(refused), [], 'a refused feed ends');
  });

  it('reads price history one page at a time and as a whole', async () => {
    const first = await carol.book.history({ token: market.tokenId1, interval: '1H', fidelity: 1, limit: 5 });
    assert.ok(first.total !== null && first.total > 5, JSON.stringify(first));
    assert.ok(first.data.every((point) => point.p === '0.6'));
    const all = await collect(carol.book.allHistory({ token: market.tokenId1, interval: '1H', fidelity: 1, limit: 5 }));
    assert.equal(all.length, first.total);
    const unknown = await thrown(carol.book.history({ token: '123', interval: '1D', fidelity: 60 }));
    assert.deepEqual([unknown.status, unknown.code], [404, 'NOT_FOUND']);
    const bad = await thrown(carol.book.history({ token: market.tokenId1, interval: '1D', fidelity: 0 }));
    assert.equal(bad.status, 400);
  });

  it("reads every market's activity and one market's, in offset and cursor mode", async () => {
    const ofMarket = await carol.markets.activityOf(market.id, { limit: 100 });
    assert.equal(ofMarket.data.length, 6, 'each trade shows both parties');
    assert.deepEqual(new Set(ofMarket.data.map((row) => row.type)), new Set(['BUY']));
    const walked = await collect(carol.markets.allActivityOf(market.id, { limit: 4 }));
    assert.deepEqual(walked.map((row) => `${row.hash}/${row.proxy_address}`), ofMarket.data.map((row) => `${row.hash}/${row.proxy_address}`));
    const everywhere = await collect(carol.markets.allActivity({ type: 'BUY', limit: 2 }));
    assert.equal(everywhere.length, 6);
    const missing = await thrown(carol.markets.activityOf(crypto.randomUUID()));
    assert.deepEqual([missing.status, missing.code], [404, 'NOT_FOUND']);
  });

  it('ranks holders per outcome and reads users positions in an event', async () => {
    const [aliceId, bobId] = [(await alice.account.get()).userId, (await bob.account.get()).userId];
    const holders = await carol.markets.holders(market.slug, { limit: 5 });
    assert.deepEqual(holders.outcome1.holders.map((h) => [h.userId, h.shares, h.rank]), [[aliceId, 20, 1]]);
    assert.deepEqual(holders.outcome2.holders.map((h) => [h.userId, h.shares, h.rank]), [[bobId, 20, 1]]);
    const positions = await carol.events.positions(eventId, [aliceId, bobId]);
    assert.deepEqual(positions.map((p) => [p.userId, p.positions.map((x) => [x.tokenId, x.amount])]), [
      [aliceId, [[market.tokenId1, '20']]], [bobId, [[market.tokenId2, '20']]],
    ]);
    assert.equal((await thrown(carol.events.positions(eventId, ['not-a-uuid']))).status, 400);
    assert.equal((await thrown(carol.markets.holders('no-such-market'))).status, 404);
  });

  it('runs the oracle: refusals, proposal, dispute, operator decision', async () => {
    assert.equal((await carol.oracle.resolution(market.id)).status, 'UNPROPOSED');
    const early = await thrown(alice.oracle.propose(market.id, 'YES'));
    assert.deepEqual([early.status, early.code], [400, 'VALIDATION_FAILED']);
    const anonymous = await thrown(createClient({ baseUrl: server.url }).oracle.propose(market.id, 'YES'));
    assert.deepEqual([anonymous.status, anonymous.code], [0, 'MISSING_CREDENTIALS']);

    await admin.admin.clock({ advanceMs: HOUR_MS });
    const proposed = await alice.oracle.propose(market.id, 'YES');
    assert.deepEqual([proposed.status, proposed.proposedOutcome], ['PROPOSED', 'YES']);
    const own = await thrown(alice.oracle.dispute(market.id));
    assert.deepEqual([own.status, own.code], [403, 'FORBIDDEN']);
    assert.equal((await bob.oracle.dispute(market.id)).status, 'DISPUTED');
    const wrongToken = await thrown(createClient({ baseUrl: server.url, credentials: { adminToken: 'wrong' } }).admin.oracleDecide(market.id, 'NO'));
    assert.equal(wrongToken.status, 401);
    const decided = await admin.admin.oracleDecide(market.id, 'YES');
    assert.deepEqual([decided.status, decided.finalOutcome, decided.disputed], ['RESOLVED', 'YES', true]);
    // A resolved market takes no proposal (EXTENSIONS.md section 9).
    const again = await thrown(admin.admin.oraclePropose(market.id, 'NO'));
    assert.deepEqual([again.status, again.code], [400, 'MARKET_NOT_TRADABLE']);
  });

  it('redeems one market and a batch, with the markets it cannot redeem excluded', async () => {
    assert.deepEqual((await alice.portfolio.redeemable()).map((r) => r.marketId), [market.id]);
    const before = Number((await alice.account.balance()).collateral.balance);
    const redeemed = await alice.portfolio.redeem(market.id);
    assert.deepEqual([redeemed.included, redeemed.excluded], [[market.id], []]);
    assert.equal(Number((await alice.account.balance()).collateral.balance), before + 20, 'YES pays 1 per token');
    assert.deepEqual(await alice.portfolio.redeemable(), []);

    const batch = await bob.portfolio.redeemMany([market.id, other.id]);
    assert.deepEqual(batch.included, [market.id]);
    assert.deepEqual(batch.excluded, [{ marketId: other.id, reason: 'not-redeemable' }]);
    assert.deepEqual((await alice.portfolio.redeem(market.id)).excluded, [{ marketId: market.id, reason: 'zero-onchain-balance' }]);
    assert.equal((await thrown(alice.portfolio.redeemMany([]))).status, 400);
    const unsigned = await thrown(createClient({ baseUrl: server.url }).portfolio.redeemable());
    assert.equal(unsigned.code, 'MISSING_CREDENTIALS');
  });
});
