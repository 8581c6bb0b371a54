import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post, request } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/auth-client.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { expectPaidOnChain } from '../helpers/wallet-payouts.ts';
import { connectInbox } from '../realtime/helpers.ts';
import { parseUnits } from '../../src/core/money.ts';

/**
 * Rewards end to end on a manual clock. Two makers quote one market for a whole UTC day around a
 * midpoint of 0.50 with maxDistanceFromMid 0.05 and 14.4 USDC a day (10,000 base units a minute):
 * alice 100 tokens 0.02 from the mid on each side: ((0.05 − 0.02) / 0.05)² × 100 = 36;
 * bob 200 tokens 0.03 away on each side: ((0.05 − 0.03) / 0.05)² × 200 = 32.
 * A minute splits 10,000 as 5,294.1 and 4,705.9: floors 5,294 and 4,705, the leftover unit goes to
 * bob's larger fraction, so over 1,440 minutes alice earns 7.623360 and bob 6.776640.
 */
const DAY_MS = 86_400_000;
const MIN_PAYOUT = '7';

describe('maker rewards: configuration, sampling, daily close, claims, listings', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let day1: string;
  let day2: string;
  let day1StartMs: number;

  const setClock = async (ms: number) => assert.equal((await post(server.api('/admin/clock'), { now: new Date(ms).toISOString() }, server.adminHeaders)).status, 200);
  const putConfig = (marketId: string, body: Record<string, unknown>, headers = server.adminHeaders) => request('PUT', server.api(`/admin/markets/${marketId}/rewards`), { body, headers });
  const dayConfig = (date: string) => ({ date, rewardUsdc: '14.4', maxDistanceFromMid: '0.05', minOrderSizeUsdc: '1' });
  /** A fresh session token: the clock jumps days, so the first one has expired. */
  const tokenOf = async (trader: Trader) => (await signIn(server, trader.session.account)).token;
  const collateral = async (trader: Trader) => parseUnits((await trader.call('GET', '/account/balance')).body.collateral.balance)!;
  const quote = async (trader: Trader, price: string, size: string) => {
    for (const tokenId of [market.tokenId1, market.tokenId2]) {
      const placed = await placeOrder(server, trader, { tokenId, side: 'BUY', price, size });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
    }
  };

  before(async () => {
    server = await startTestServer({ REWARDS_MIN_PAYOUT_USDC: MIN_PAYOUT });
    day1StartMs = Math.ceil((server.ctx.clock.nowMs() + 120_000) / DAY_MS) * DAY_MS;
    day1 = new Date(day1StartMs).toISOString().slice(0, 10);
    day2 = new Date(day1StartMs + DAY_MS).toISOString().slice(0, 10);
    market = (await createPublishedEvent(server, { name: 'Rewarded event' })).markets[0]!;
    [alice, bob, carol] = [await newTrader(server, { fund: '1000' }), await newTrader(server, { fund: '1000' }), await newTrader(server, { fund: '10' })];
  });
  after(async () => {
    await server?.close();
  });

  it('validates the admin configuration, treasury and pause routes', async () => {
    expectError(await putConfig(market.id, dayConfig(day1), { 'content-type': 'application/json' }), 401, 'UNAUTHORIZED');
    expectError(await putConfig(market.id, { ...dayConfig(day1), maxDistanceFromMid: '1.5' }), 400, 'VALIDATION_FAILED');
    expectError(await putConfig(market.id, { ...dayConfig(day1), rewardUsdc: '1.0000001' }), 400, 'VALIDATION_FAILED');
    // Beyond what the 64-bit columns hold: a 400, never a database error.
    expectError(await putConfig(market.id, { ...dayConfig(day1), rewardUsdc: '100000000000000' }), 400, 'VALIDATION_FAILED');
    expectError(await putConfig(market.id, { ...dayConfig(day1), minOrderSizeUsdc: '1000000000.000001' }), 400, 'VALIDATION_FAILED');
    expectError(await putConfig(market.id, { ...dayConfig('2020-01-01') }), 400, 'VALIDATION_FAILED');
    expectError(await putConfig(market.id, { ...dayConfig(day1), startAt: new Date(day1StartMs + 5000).toISOString(), endAt: new Date(day1StartMs).toISOString() }), 400, 'VALIDATION_FAILED');
    const overlapping = [0, 30].map((m) => ({ startAt: new Date(day1StartMs + m * 60_000).toISOString(), endAt: new Date(day1StartMs + (m + 60) * 60_000).toISOString(), multiplier: '2' }));
    expectError(await putConfig(market.id, { ...dayConfig(day1), boostWindows: overlapping }), 400, 'VALIDATION_FAILED');
    expectError(await putConfig('00000000-0000-4000-8000-000000000000', dayConfig(day1)), 404, 'NOT_FOUND');
    expectError(await post(server.api('/admin/rewards/treasury'), { amount: '0' }, server.adminHeaders), 400, 'VALIDATION_FAILED');
    expectError(await post(server.api('/admin/rewards/treasury'), { amount: '5' }, { 'content-type': 'application/json' }), 401, 'UNAUTHORIZED');
    expectError(await post(server.api('/admin/rewards/pause'), { paused: 'yes' }, server.adminHeaders), 400, 'VALIDATION_FAILED');

    const saved = await putConfig(market.id, dayConfig(day1));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual([saved.body.rewardUsdc, saved.body.maxDistanceFromMid, saved.body.extremeMaxDistanceFromMid, saved.body.minOrderSizeUsdc, saved.body.currentBoostMultiplier], ['14.400000', '0.05', '0.05', '1.000000', '1']);
    assert.equal((await putConfig(market.id, dayConfig(day2))).status, 200);
    const funded = await post(server.api('/admin/rewards/treasury'), { amount: '1000' }, server.adminHeaders);
    assert.deepEqual([funded.status, funded.body], [200, { balance: '1000' }]);
    // Tomorrow's configuration is not a current-period opportunity yet.
    expectError(await get(server.api(`/rewards/markets/${market.id}/pool`)), 404, 'NOT_FOUND');
    assert.equal((await get(server.api('/rewards/markets/pools'))).body.total, 0);
    assert.equal((await get(server.api('/events?includeRewards=true'))).body.data[0].markets[0].reward, null);
  });

  it('pays two makers what the formula says to the base unit, and only after the day closes', async () => {
    await setClock(day1StartMs - 60_000);
    await quote(alice, '0.48', '100');
    await quote(bob, '0.47', '200');
    await setClock(day1StartMs);

    const pool = await get(server.api(`/rewards/markets/${market.id}/pool`));
    assert.equal(pool.status, 200, JSON.stringify(pool.body));
    assert.deepEqual([pool.body.rewardStatus, pool.body.accruingNow, pool.body.isMultiMarket, pool.body.isActive], ['ACCRUING', true, false, true]);
    const pools = (await get(server.api('/rewards/markets/pools?limit=500&search=REWARDED'))).body;
    assert.deepEqual([pools.total, pools.limit, pools.totalRewardUsdc, pools.data[0].markets[0].marketId], [1, 50, '14.400000', market.id]);
    assert.equal((await get(server.api('/rewards/markets/pools?search=nothing-like-this'))).body.total, 0);
    const listed = (await get(server.api('/events?includeRewards=true'))).body.data[0].markets[0];
    assert.deepEqual([listed.reward.marketId, listed.reward.rewardUsdc, listed.reward.rewardStatus], [market.id, '14.400000', 'ACCRUING']);
    assert.equal('reward' in (await get(server.api('/events'))).body.data[0].markets[0], false);

    const qualifying = (await alice.call('GET', '/rewards/me/qualifying-orders')).body;
    assert.deepEqual(qualifying.map((o: any) => [o.outcomeIndex, o.side, o.price, o.sizeUsdc]).sort(), [[0, 'BUY', 0.48, '48.000000'], [1, 'BUY', 0.48, '48.000000']]);
    expectError(await request('GET', server.api('/rewards/me/qualifying-orders')), 401, 'UNAUTHORIZED');
    // 0.10 from the midpoint is beyond maxDistanceFromMid: carol's order rests but does not qualify.
    assert.equal((await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '5' })).status, 200);
    assert.deepEqual((await carol.call('GET', '/rewards/me/qualifying-orders')).body, []);

    // One minute (the day's first) has been sampled.
    const early = (await alice.call('GET', '/rewards/me/summary')).body;
    assert.equal(early.earnedSoFarUsdc, '0.005294');
    assert.deepEqual([early.claimableUsdc, early.canClaim, early.minPayoutUsdc], ['0.000000', false, '7.000000']);
    // Frozen once the window opened: only `enabled` may change.
    expectError(await putConfig(market.id, { ...dayConfig(day1), rewardUsdc: '20' }), 409, 'CONFLICT');
    assert.equal((await putConfig(market.id, { ...dayConfig(day1), enabled: true })).status, 200);

    await setClock(day1StartMs + DAY_MS);
    const aliceSummary = (await alice.call('GET', '/rewards/me/summary')).body;
    const bobSummary = (await bob.call('GET', '/rewards/me/summary')).body;
    // Lifetime includes the first minute of the next day, sampled as the clock reached it.
    assert.deepEqual([aliceSummary.claimableUsdc, aliceSummary.canClaim, aliceSummary.allTimeEarnedUsdc], ['7.623360', true, '7.628654']);
    assert.deepEqual(aliceSummary.todayByMarket.map((r: any) => [r.marketId, r.earnedSoFarUsdc, r.pendingSettlement, r.estimatedRewardUsdc]), [[market.id, '0.005294', false, null]]);
    assert.deepEqual([bobSummary.claimableUsdc, bobSummary.canClaim], ['6.776640', false]);
    assert.deepEqual(aliceSummary.yesterdaySettled.perMarket.map((r: any) => [r.marketId, r.amountUsdc, r.status]), [[market.id, '7.623360', 'PENDING']]);
    const history = (await bob.call('GET', '/rewards/me/history?total=true')).body;
    expectError(await bob.call('GET', '/rewards/me/history?page=100000000000000000&limit=100'), 400, 'VALIDATION_FAILED');
    assert.deepEqual(history.data.map((r: any) => [r.epochDate, r.earnedUsdc, r.carriedInUsdc, r.amountUsdc, r.status]), [[day1, '6.776640', '0.000000', '6.776640', 'CARRIED']]);
    assert.equal(history.total, 1);
  });

  it('claims: dispatched then paid with socket events, below-threshold, nothing-to-claim', async () => {
    const inbox = await connectInbox(server.url, '/user', { token: await tokenOf(alice) });
    const before = await collateral(alice);
    const claimed = await alice.call('POST', '/rewards/me/claim');
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    assert.deepEqual(claimed.body, { accepted: true, outcome: 'dispatched', claimableAmountUsdc: '7.623360', recipientCount: 1, rowCount: 1, pollUrl: '/api/v1/rewards/me/history' });
    const states = [];
    for (let i = 0; i < 3; i++) {
      const message = await inbox.next();
      assert.equal(message.event, 'user-reward-claim-update');
      states.push(message.payload.state);
      assert.equal(message.payload.amountUsdc, '7.623360');
      if (message.payload.state === 'paid') assert.match(message.payload.txHash, /^0x[0-9a-f]{64}$/);
    }
    inbox.close();
    assert.deepEqual(states, ['dispatched', 'in-flight', 'paid']);
    assert.equal((await collateral(alice)) - before, 7_623_360n);
    const row = (await alice.call('GET', '/rewards/me/history')).body.data[0];
    assert.equal(row.status, 'PAID');
    assert.ok(row.txHash && row.paidAt);
    // On a chain the payout is in the wallet too: the claim's hash is the mined transfer to it.
    if (server.ctx.chain.embedded) await expectPaidOnChain(server, row.txHash, alice.proxyWallet, 7_623_360n);
    assert.equal((await alice.call('POST', '/rewards/me/claim')).body.outcome, 'nothing-to-claim');
    // The public profile counts what was paid, not what is merely earned.
    assert.equal((await alice.call('PATCH', '/account', { displayName: 'alice_rewards' })).status, 200);
    const profile = (await request('GET', server.api('/profiles/by-name/alice_rewards/summary'))).body;
    assert.deepEqual([profile.rewardsUsd, profile.rewardsCount], ['7.62336', 1]);

    const below = (await bob.call('POST', '/rewards/me/claim')).body;
    assert.deepEqual([below.accepted, below.outcome, below.claimableAmountUsdc], [false, 'below-threshold', '6.776640']);
    assert.equal((await carol.call('POST', '/rewards/me/claim')).body.outcome, 'nothing-to-claim');
    expectError(await request('POST', server.api('/rewards/me/claim')), 401, 'UNAUTHORIZED');
  });

  it('limits claims to 6 per rolling minute with Retry-After', async () => {
    const dave = await newTrader(server);
    for (let i = 0; i < 6; i++) assert.equal((await dave.call('POST', '/rewards/me/claim')).status, 200);
    const limited = await dave.call('POST', '/rewards/me/claim');
    expectError(limited, 429, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    await setClock(server.ctx.clock.nowMs() + 60_000);
    assert.equal((await dave.call('POST', '/rewards/me/claim')).status, 200);
  });

  it('carries a small row into the next day, lists the leaderboard by window, and pays a claim storm once', async () => {
    // Day 2: both quoted for its first two minutes (split as on day 1), then alice leaves and bob
    // earns the remaining 1,438 minutes alone: 2 × 4,706 + 1,438 × 10,000 = 14.389412.
    for (const order of (await alice.call('GET', '/rewards/me/qualifying-orders')).body) assert.equal((await alice.call('POST', `/orders/${order.orderId}/cancel`)).status, 200);
    await setClock(day1StartMs + 2 * DAY_MS);
    const rows = (await bob.call('GET', '/rewards/me/history')).body.data.map((r: any) => [r.epochDate, r.earnedUsdc, r.carriedInUsdc, r.amountUsdc, r.status]);
    assert.deepEqual(rows, [[day2, '14.389412', '6.776640', '21.166052', 'PENDING'], [day1, '6.776640', '0.000000', '6.776640', 'ROLLED_UP']]);
    const aliceRows = (await alice.call('GET', '/rewards/me/history')).body.data.map((r: any) => [r.epochDate, r.amountUsdc, r.status]);
    assert.deepEqual(aliceRows, [[day2, '0.010588', 'CARRIED'], [day1, '7.623360', 'PAID']]);

    const all = (await get(server.api('/rewards/leaderboard?window=all'), { authorization: `Bearer ${await tokenOf(carol)}` })).body;
    assert.deepEqual(all.data.map((e: any) => [e.rank, e.userId, e.earnedUsdc]), [[1, bob.userId, '21.166052'], [2, alice.userId, '7.633948']]);
    assert.equal(all.currentUser, null);
    const recent = (await get(server.api('/rewards/leaderboard?window=24h&limit=1000'))).body;
    assert.deepEqual([recent.limit, recent.window, 'currentUser' in recent], [100, '24h', false]);
    assert.deepEqual(recent.data.map((e: any) => [e.userId, e.earnedUsdc]), [[bob.userId, '14.389412'], [alice.userId, '0.010588']]);
    const alicePage = (await get(server.api('/rewards/leaderboard?window=all&limit=1'), { authorization: `Bearer ${await tokenOf(alice)}` })).body;
    assert.deepEqual([alicePage.total, alicePage.currentUser.rank, alicePage.currentUser.isCurrentUser], [2, 2, true]);

    const before = await collateral(bob);
    const storm = await Promise.all(Array.from({ length: 5 }, () => bob.call('POST', '/rewards/me/claim')));
    assert.deepEqual(storm.map((r) => r.status), [200, 200, 200, 200, 200]);
    assert.equal(storm.filter((r) => r.body.outcome === 'dispatched').length, 1);
    await server.ctx.rewards.claims.idle();
    assert.equal((await collateral(bob)) - before, 21_166_052n);
    assert.equal((await bob.call('GET', '/rewards/me/summary')).body.claimableUsdc, '0.000000');
    await expectAuditClean(server);
  });

  it('counts seven days ago through today in the week window (SPEC.md 4.7), and only today and yesterday in 24h', async () => {
    const aliceEarned = async (window: string) => (await get(server.api(`/rewards/leaderboard?window=${window}`))).body.data.find((e: any) => e.userId === alice.userId)?.earnedUsdc;
    // Alice earned 7.623360 on day 1 and 0.010588 on day 2.
    await setClock(day1StartMs + 7 * DAY_MS);
    assert.deepEqual([await aliceEarned('week'), await aliceEarned('24h'), await aliceEarned('all')], ['7.633948', undefined, '7.633948']);
    await setClock(day1StartMs + 8 * DAY_MS);
    assert.deepEqual([await aliceEarned('week'), await aliceEarned('all')], ['0.010588', '7.633948']);
  });
});
