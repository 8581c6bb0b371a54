import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, parseUnits, type ExchangeClient } from '../../src/client/index.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited } from '../helpers/trader.ts';
import { adminClient, publishedMarkets, thrown, traderClient } from './helpers.ts';

const DAY_MS = 86_400_000;

/**
 * Maker rewards through the SDK on a manual clock: the operator configures 14.4 USDC a day on one
 * market (10,000 base units a minute) and funds the treasury; Alice alone quotes both outcomes
 * 0.02 from the midpoint for the whole UTC day, so she earns every minute: 14.400000.
 */
describe('SDK rewards and reward administration against a real server', () => {
  let server: TestServer;
  let admin: ExchangeClient;
  let alice: ExchangeClient;
  let market: Awaited<ReturnType<typeof publishedMarkets>>['markets'][number];
  let dayStartMs: number;
  let day: string;

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error', REWARDS_MIN_PAYOUT_USDC: '7' });
    admin = adminClient(server);
    dayStartMs = Math.ceil((server.ctx.clock.nowMs() + 120_000) / DAY_MS) * DAY_MS;
    day = new Date(dayStartMs).toISOString().slice(0, 10);
    market = (await publishedMarkets(admin)).markets[0]!;
    // API key only: a session token would expire while the clock jumps a day.
    const signedIn = await traderClient(server, '1000');
    alice = createClient({ baseUrl: server.url, credentials: { apiKey: signedIn.credentials.apiKey! } });
  });
  after(() => closeAudited(server));

  it('configures a market, funds the treasury and pauses through the admin calls, refusing bad input', async () => {
    const config = { date: day, rewardUsdc: '14.4', maxDistanceFromMid: '0.05', minOrderSizeUsdc: '1' };
    const saved = await admin.admin.configureRewards(market.id, config);
    assert.deepEqual([saved.marketId, saved.rewardUsdc, saved.maxDistanceFromMid, saved.minOrderSizeUsdc, saved.rewardStatus], [market.id, '14.400000', '0.05', '1.000000', 'SCHEDULED']);
    assert.deepEqual(await admin.admin.fundRewardTreasury('1000'), { balance: '1000' });
    const idempotencyKey = crypto.randomUUID();
    assert.deepEqual(await admin.admin.fundRewardTreasury('10', { idempotencyKey }), { balance: '1010' });
    assert.deepEqual(await admin.admin.fundRewardTreasury('10', { idempotencyKey }), { balance: '1010' }, 'the same key deposits once');
    const reused = await thrown(admin.admin.fundRewardTreasury('11', { idempotencyKey }));
    assert.deepEqual([reused.status, reused.code], [409, 'CONFLICT']);
    assert.deepEqual(await admin.admin.pauseRewards(true), { paused: true });
    assert.deepEqual(await admin.admin.pauseRewards(false), { paused: false });

    const tooFar = await thrown(admin.admin.configureRewards(market.id, { ...config, maxDistanceFromMid: '1.5' }));
    assert.deepEqual([tooFar.status, tooFar.code], [400, 'VALIDATION_FAILED']);
    const unknown = await thrown(admin.admin.configureRewards(crypto.randomUUID(), config));
    assert.deepEqual([unknown.status, unknown.code], [404, 'NOT_FOUND']);
    const nothing = await thrown(admin.admin.fundRewardTreasury('0'));
    assert.deepEqual([nothing.status, nothing.code], [400, 'VALIDATION_FAILED']);
    const intruder = createClient({ baseUrl: server.url, credentials: { adminToken: `${ADMIN_TOKEN}-wrong` } });
    assert.equal((await thrown(intruder.admin.pauseRewards(true))).status, 401);
    assert.equal((await thrown(alice.admin.fundRewardTreasury('5'))).code, 'MISSING_CREDENTIALS');
  });

  it('lists the pool and the qualifying orders while the day accrues', async () => {
    await admin.admin.clock({ now: new Date(dayStartMs - 60_000).toISOString() });
    for (const tokenId of [market.tokenId1, market.tokenId2]) await alice.orders.place({ tokenId, side: 'BUY', price: '0.48', size: '100' });
    await admin.admin.clock({ now: new Date(dayStartMs).toISOString() });

    const pool = await alice.rewards.pool(market.id);
    assert.deepEqual([pool.rewardStatus, pool.accruingNow, pool.isActive], ['ACCRUING', true, true]);
    const pools = await alice.rewards.pools({ limit: 500 });
    assert.deepEqual([pools.total, pools.limit, pools.totalRewardUsdc, pools.data[0]!.markets[0]!.marketId], [1, 50, '14.400000', market.id]);
    const qualifying = await alice.rewards.qualifyingOrders();
    assert.deepEqual(qualifying.map((o) => [o.outcomeIndex, o.side, o.price, o.sizeUsdc]).sort(), [[0, 'BUY', 0.48, '48.000000'], [1, 'BUY', 0.48, '48.000000']]);
    const summary = await alice.rewards.summary();
    assert.deepEqual([summary.earnedSoFarUsdc, summary.claimableUsdc, summary.canClaim, summary.minPayoutUsdc], ['0.010000', '0.000000', false, '7.000000']);
  });

  it('after the day closes: summary, history, leaderboard with the caller, and a claim paid once', async () => {
    await admin.admin.clock({ now: new Date(dayStartMs + DAY_MS).toISOString() });
    const summary = await alice.rewards.summary();
    assert.deepEqual([summary.claimableUsdc, summary.canClaim, summary.yesterdaySettled.perMarket.map((r) => [r.marketId, r.amountUsdc, r.status])], ['14.400000', true, [[market.id, '14.400000', 'PENDING']]]);
    const history = await alice.rewards.history({ total: true });
    assert.deepEqual([history.total, history.data.map((r) => [r.epochDate, r.earnedUsdc, r.amountUsdc, r.status])], [1, [[day, '14.400000', '14.400000', 'PENDING']]]);
    const board = await alice.rewards.leaderboard({ window: 'all' });
    // Signed with the API key, the caller is recognised: flagged on the page, so no separate currentUser.
    assert.deepEqual([board.window, board.data.map((e) => [e.rank, e.earnedUsdc, e.isCurrentUser]), board.currentUser], ['all', [[1, '14.400000', true]], null]);
    assert.equal('currentUser' in (await admin.rewards.leaderboard()), false, 'an anonymous caller has no currentUser');

    const before = parseUnits((await alice.account.balance()).collateral.balance)!;
    const claim = await alice.rewards.claim();
    assert.deepEqual(claim, { accepted: true, outcome: 'dispatched', claimableAmountUsdc: '14.400000', recipientCount: 1, rowCount: 1, pollUrl: '/api/v1/rewards/me/history' });
    await server.ctx.rewards.claims.idle();
    assert.equal(parseUnits((await alice.account.balance()).collateral.balance)! - before, 14_400_000n);
    const [paid] = (await alice.rewards.history()).data;
    assert.equal(paid!.status, 'PAID');
    assert.match(paid!.txHash!, /^0x[0-9a-f]{64}$/);
    assert.equal((await alice.rewards.claim()).outcome, 'nothing-to-claim');
  });

  it('refuses bad parameters (400), missing or bad credentials (401), and an unknown pool (404)', async () => {
    const badLimit = await thrown(alice.rewards.history({ limit: 1000 }));
    assert.deepEqual([badLimit.status, badLimit.code], [400, 'VALIDATION_FAILED']);
    const badWindow = await thrown(alice.rewards.leaderboard({ window: 'month' as 'all' }));
    assert.deepEqual([badWindow.status, badWindow.code], [400, 'VALIDATION_FAILED']);
    const noPool = await thrown(alice.rewards.pool(crypto.randomUUID()));
    assert.deepEqual([noPool.status, noPool.code], [404, 'NOT_FOUND']);
    assert.equal((await thrown(createClient({ baseUrl: server.url }).rewards.summary())).code, 'MISSING_CREDENTIALS');
    const expired = createClient({ baseUrl: server.url, credentials: { token: 'not-a-session-token' } });
    const refused = await thrown(expired.rewards.claim());
    assert.deepEqual([refused.status, refused.code], [401, 'UNAUTHORIZED']);
  });
});
