import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseUnits } from '../../src/core/money.ts';
import { REWARD_TREASURY, userAccount } from '../../src/settlement/accounts.ts';
import { attachRowsToClaim, insertClaim, lockClaimableRows } from '../../src/store/rewards-repository.ts';
import { signIn } from '../helpers/auth-client.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post, request } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { connectInbox } from '../realtime/helpers.ts';

/**
 * The rules around the score, over one UTC day on a manual clock, one maker alone per market (so a
 * maker earns each paid minute's whole budget), 1.44 USDC a day = 1,000 base units a minute:
 * - market A: a ×2 boost on the first hour; a global pause from minute 61 to minute 120.
 *   Paid: 60 × 2,000 + 1 × 1,000 (minute 60) + 1,319 × 1,000 (minutes 121 to 1,439) = 1.440000.
 * - market B resolves at minute 180 (operator proposal at minute 60, 2-hour liveness): paid for
 *   minutes 0-60 and 121-179 = 120 × 1,000 = 0.120000, shown as pendingSettlement once resolved.
 * - market C is disabled at minute 60: its day is withdrawn (CANCELLED) when it closes.
 * The treasury holds 1 USDC: A's claim of 1.44 cannot be covered and needs investigation.
 */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

describe('maker rewards: boosts, pause, resolution, withdrawal, treasury shortfall', () => {
  let server: TestServer;
  let dayStartMs: number;
  let date: string;
  const markets: PublishedMarket[] = [];
  const makers: Trader[] = [];

  const setClock = async (ms: number) => assert.equal((await post(server.api('/admin/clock'), { now: new Date(ms).toISOString() }, server.adminHeaders)).status, 200);
  const atMinute = (minute: number) => setClock(dayStartMs + minute * MINUTE_MS);
  const putConfig = (marketId: string, body: Record<string, unknown>) => request('PUT', server.api(`/admin/markets/${marketId}/rewards`), { body, headers: server.adminHeaders });
  const pause = async (paused: boolean) => assert.deepEqual((await post(server.api('/admin/rewards/pause'), { paused }, server.adminHeaders)).body, { paused });
  const config = (extra: Record<string, unknown> = {}) => ({ date, rewardUsdc: '1.44', maxDistanceFromMid: '0.05', minOrderSizeUsdc: '1', ...extra });

  before(async () => {
    server = await startTestServer();
    dayStartMs = Math.ceil((server.ctx.clock.nowMs() + 2 * MINUTE_MS) / DAY_MS) * DAY_MS;
    date = new Date(dayStartMs).toISOString().slice(0, 10);
    for (const name of ['Boosted and paused', 'Resolving mid-day', 'Withdrawn']) {
      markets.push((await createPublishedEvent(server, { name })).markets[0]!);
      makers.push(await newTrader(server, { fund: '100' }));
    }
    const boost = { startAt: new Date(dayStartMs).toISOString(), endAt: new Date(dayStartMs + 60 * MINUTE_MS).toISOString(), multiplier: '2.00' };
    assert.equal((await putConfig(markets[0]!.id, config({ boostWindows: [boost] }))).status, 200);
    assert.equal((await putConfig(markets[1]!.id, config())).status, 200);
    assert.equal((await putConfig(markets[2]!.id, config())).status, 200);
    assert.equal((await post(server.api('/admin/rewards/treasury'), { amount: '1' }, server.adminHeaders)).status, 200);
    await setClock(dayStartMs - MINUTE_MS);
    for (const [i, market] of markets.entries()) {
      for (const tokenId of [market.tokenId1, market.tokenId2]) assert.equal((await placeOrder(server, makers[i]!, { tokenId, side: 'BUY', price: '0.48', size: '10' })).status, 200);
    }
  });
  after(async () => {
    await server?.close();
  });

  it('applies the boost in its window, stops during a pause, stops a resolved market, withdraws a disabled day', async () => {
    await atMinute(30);
    const boosted = (await get(server.api(`/rewards/markets/${markets[0]!.id}/pool`))).body;
    // Sent as "2.00": every multiplier of the view reads the same normalised decimal.
    assert.deepEqual([boosted.currentBoostMultiplier, boosted.activeBoostWindow?.multiplier, boosted.boostWindows[0]?.multiplier], ['2', '2', '2']);
    await atMinute(60);
    assert.equal((await get(server.api(`/rewards/markets/${markets[0]!.id}/pool`))).body.currentBoostMultiplier, '1', 'the boost window is half-open');
    assert.equal((await post(server.api(`/admin/markets/${markets[1]!.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
    const withdrawn = await putConfig(markets[2]!.id, config({ enabled: false }));
    assert.equal(withdrawn.status, 200);
    // Inside its window, but disabled: the operator's view says it is not accruing.
    assert.deepEqual([withdrawn.body.rewardStatus, withdrawn.body.accruingNow], ['SCHEDULED', false]);
    assert.equal((await get(server.api(`/rewards/markets/${markets[2]!.id}/pool`))).status, 404);
    await pause(true);
    assert.equal((await get(server.api('/rewards/markets/pools'))).body.total, 0);
    await atMinute(120);
    await pause(false);
    assert.equal((await get(server.api('/rewards/markets/pools'))).body.total, 2);
    await atMinute(179);
    await atMinute(181);
    const resolvedSummary = (await makers[1]!.call('GET', '/rewards/me/summary')).body;
    assert.deepEqual(resolvedSummary.todayByMarket.map((r: any) => [r.marketId, r.pendingSettlement, r.estimatedRewardUsdc]), [[markets[1]!.id, true, '0.120000']]);
    assert.deepEqual([resolvedSummary.pendingSettlementTotalUsdc, resolvedSummary.earnedSoFarUsdc], ['0.120000', '0.000000']);
    assert.equal((await get(server.api(`/rewards/markets/${markets[1]!.id}/pool`))).status, 404);

    await setClock(dayStartMs + DAY_MS);
    const rows = await Promise.all(makers.map(async (m) => (await m.call('GET', '/rewards/me/history')).body.data.map((r: any) => [r.earnedUsdc, r.amountUsdc, r.status])));
    assert.deepEqual(rows, [[['1.440000', '1.440000', 'PENDING']], [['0.120000', '0.120000', 'CARRIED']], [['0.061000', '0.061000', 'CANCELLED']]]);
    // A CANCELLED row is not claimable; a CARRIED one alone is below the minimum.
    assert.equal((await makers[2]!.call('POST', '/rewards/me/claim')).body.outcome, 'nothing-to-claim');
    assert.equal((await makers[1]!.call('POST', '/rewards/me/claim')).body.outcome, 'below-threshold');
  });

  it('never pays more than the treasury holds: the claim fails visibly and the row needs investigation until the treasury is funded', async () => {
    const maker = makers[0]!;
    const inbox = await connectInbox(server.url, '/user', { token: (await signIn(server, maker.session.account)).token });
    const claim = (await maker.call('POST', '/rewards/me/claim')).body;
    assert.deepEqual([claim.outcome, claim.claimableAmountUsdc], ['dispatched', '1.440000']);
    const states: string[] = [];
    for (let i = 0; i < 3; i++) states.push((await inbox.expect('user-reward-claim-update') as any).state);
    inbox.close();
    assert.deepEqual(states, ['dispatched', 'in-flight', 'failed']);
    await server.ctx.rewards.claims.idle();
    const summary = (await maker.call('GET', '/rewards/me/summary')).body;
    assert.deepEqual([summary.claimableUsdc, summary.claimInFlight, summary.canClaim], ['0.000000', false, false]);
    assert.equal((await maker.call('GET', '/rewards/me/history')).body.data[0].status, 'NEEDS_INVESTIGATION');
    const treasury = server.ctx.trading.engine.reads.balances(REWARD_TREASURY);
    assert.equal(treasury.collateral.balance, parseUnits('1'));
    await expectAuditClean(server);
    // The operator funds the treasury: the row is claimable again, and paid by the next claim.
    assert.equal((await post(server.api('/admin/rewards/treasury'), { amount: '1' }, server.adminHeaders)).status, 200);
    assert.equal((await maker.call('GET', '/rewards/me/history')).body.data[0].status, 'FAILED');
    assert.equal((await maker.call('GET', '/rewards/me/summary')).body.claimableUsdc, '1.440000');
    assert.equal((await maker.call('POST', '/rewards/me/claim')).body.outcome, 'dispatched');
    await server.ctx.rewards.claims.idle();
    assert.equal((await maker.call('GET', '/rewards/me/history')).body.data[0].status, 'PAID');
    assert.equal(server.ctx.trading.engine.reads.balances(REWARD_TREASURY).collateral.balance, parseUnits('0.56'));
    await expectAuditClean(server);
  });

  it('pays a claim a crash left in flight exactly once when the server resumes it', async () => {
    const maker = makers[1]!;
    const db = server.ctx.store.db;
    const before = server.ctx.trading.engine.reads.balances(userAccount(maker.proxyWallet)).collateral.balance;
    // What a crash between dispatch and payment leaves behind: a claim owning the rows, in flight.
    const claimId = crypto.randomUUID();
    await db.transaction().execute(async (tx) => {
      const rows = await lockClaimableRows(tx, maker.userId);
      const now = new Date(server.ctx.clock.nowMs());
      await insertClaim(tx, { id: claimId, user_id: maker.userId, account: userAccount(maker.proxyWallet), amount_base_units: 120_000n, row_count: rows.length, state: 'in-flight', tx_hash: null, error: null, created_at: now, updated_at: now });
      await attachRowsToClaim(tx, claimId, rows.map((r) => r.id));
    });
    assert.equal((await maker.call('GET', '/rewards/me/summary')).body.claimInFlight, true);
    assert.equal((await maker.call('POST', '/rewards/me/claim')).body.outcome, 'nothing-to-claim');
    await server.ctx.rewards.claims.resumeUnfinished();
    await server.ctx.rewards.claims.resumeUnfinished();
    const after = server.ctx.trading.engine.reads.balances(userAccount(maker.proxyWallet)).collateral.balance;
    assert.equal(after - before, 120_000n);
    const row = (await maker.call('GET', '/rewards/me/history')).body.data[0];
    assert.deepEqual([row.status, typeof row.txHash], ['PAID', 'string']);
    await expectAuditClean(server);
  });

  it('lists pools by event, a multi-market event whole on one page, without zero, disabled or hidden opportunities', async () => {
    const today = { rewardUsdc: '2', maxDistanceFromMid: '0.03', minOrderSizeUsdc: '5' };
    const multi = await createPublishedEvent(server, { name: 'Three-way pool', markets: 3 });
    const single = (await createPublishedEvent(server, { name: 'Single pool' })).markets[0]!;
    const zero = (await createPublishedEvent(server, { name: 'Zero pool' })).markets[0]!;
    for (const m of multi.markets) assert.equal((await putConfig(m.id, today)).status, 200);
    assert.equal((await putConfig(single.id, today)).status, 200);
    assert.equal((await putConfig(zero.id, { ...today, rewardUsdc: '0' })).status, 200);
    const first = (await get(server.api('/rewards/markets/pools?limit=1'))).body;
    assert.deepEqual([first.first, first.last, first.limit, first.total, first.totalRewardUsdc], [1, 1, 1, 2, '8.000000']);
    const second = (await get(server.api('/rewards/markets/pools?limit=1&page=2'))).body;
    const groups = [first.data[0], second.data[0]];
    const multiGroup = groups.find((g: any) => g.eventId === multi.event.id);
    assert.deepEqual([multiGroup.isMultiMarket, multiGroup.markets.length], [true, 3]);
    assert.equal(groups.find((g: any) => g.eventId !== multi.event.id).markets[0].marketId, single.id);
    const beyond = (await get(server.api('/rewards/markets/pools?limit=1&page=3'))).body;
    assert.deepEqual([beyond.first, beyond.last, beyond.data.length], [2, 2, 0]);
    const search = (await get(server.api('/rewards/markets/pools?search=three-WAY'))).body;
    assert.deepEqual([search.total, search.totalRewardUsdc], [1, '8.000000']);
    assert.equal((await get(server.api(`/rewards/markets/${zero.id}/pool`))).status, 404);
    expectError(await get(server.api('/rewards/markets/pools?page=0')), 400, 'VALIDATION_FAILED');
  });
});
