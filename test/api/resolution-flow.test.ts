import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REWARD_TREASURY, FEE_ACCOUNT, marketLockAccount } from '../../src/settlement/accounts.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { collateralOf } from '../helpers/resolution.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { expectPaidOnChain } from '../helpers/wallet-payouts.ts';

/**
 * The whole resolution flow through the API on a manual clock: trade, end the market, propose,
 * dispute, let the window pass or decide, resolve (open orders cancelled, trading stops), redeem.
 */
const HOUR_MS = 3_600_000;

describe('resolution: propose, dispute, settle, resolve, redeem', () => {
  let server: TestServer;
  const advance = async (ms: number) => {
    const response = await post(server.api('/admin/clock'), { advanceMs: ms }, server.adminHeaders);
    assert.equal(response.status, 200, JSON.stringify(response.body));
  };
  const collateral = async (trader: Trader) => (await trader.call('GET', '/account/balance')).body.collateral as { balance: string; locked: string; available: string };
  const ledgerCollateral = async (account: string) => collateralOf(server, account);
  const resolution = async (marketId: string) => (await get(server.api(`/markets/${marketId}/resolution`))).body;
  /** The payouts made on chain for the oracle's ledger moves so far (CHAIN=embedded), once every durable one was made. */
  const chainPayouts = async () => {
    await server.ctx.trading.engine.announced();
    await server.ctx.conditionalTokens.oraclePayouts?.idle();
    return server.ctx.store.db.selectFrom('chain_payouts').selectAll().execute();
  };
  const adminPropose = (marketId: string, outcome: string) => post(server.api(`/admin/markets/${marketId}/oracle/propose`), { outcome }, server.adminHeaders);

  /** A published market ending in an hour, on which alice buys YES and bob buys NO (a MINT of `size`). */
  async function tradedMarket(options: { size?: string; negRisk?: boolean; markets?: number } = {}) {
    const endDate = new Date(server.ctx.clock.nowMs() + HOUR_MS).toISOString();
    const published = await createPublishedEvent(server, { endDate, proposalBond: '10', reward: '2', liveness: 600, markets: options.markets ?? 1, negRisk: options.negRisk ?? false });
    const market = published.markets[0]!;
    const alice = await newTrader(server, { fund: '100' });
    const bob = await newTrader(server, { fund: '100' });
    const size = options.size ?? '10';
    const negRisk = options.negRisk ?? false;
    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size, negRisk })).status, 200);
    assert.equal((await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.4', size, negRisk })).status, 200);
    await server.ctx.trading.engine.settle();
    return { ...published, market, alice, bob };
  }

  async function redeem(trader: Trader, marketIds: string[]) {
    const response = await trader.call('POST', '/markets/redeem-positions/batch', { marketIds });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as { txHash: string; included: string[]; excluded: { marketId: string; reason: string }[] };
  }

  before(async () => {
    server = await startTestServer();
    await server.ctx.trading.engine.credit({ account: REWARD_TREASURY, amount: 1_000_000_000n, reason: 'TREASURY_DEPOSIT', ref: 'test' });
  });
  after(async () => {
    await server.close();
  });

  it('undisputed: the window ends, the proposer is paid, open orders are cancelled, winners redeem', async () => {
    const { market, event, alice, bob } = await tradedMarket();
    const carol = await newTrader(server, { fund: '50' });
    const resting = await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.3', size: '5' });
    assert.equal(resting.status, 200);
    assert.deepEqual(await resolution(market.id), { marketId: market.id, status: 'UNPROPOSED', proposedOutcome: null, proposedAt: null, disputeEndsAt: null, disputed: false, finalOutcome: null, settledAt: null, resolvedAt: null });

    expectError(await carol.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'YES' }), 400, 'VALIDATION_FAILED');
    await advance(HOUR_MS);
    const proposed = await carol.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'YES' });
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal(proposed.body.status, 'PROPOSED');
    assert.equal(Date.parse(proposed.body.disputeEndsAt) - Date.parse(proposed.body.proposedAt), 600_000);
    // Bond (10) and the open order's reservation (1.5) are locked; the balance is unchanged.
    assert.deepEqual(await collateral(carol), { balance: '50', locked: '11.5', available: '38.5' });
    expectError(await bob.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'NO' }), 409, 'CONFLICT');
    expectError(await adminPropose(market.id, 'NO'), 409, 'CONFLICT');
    const marketView = (await get(server.api(`/markets/${market.id}`))).body;
    assert.deepEqual([marketView.hasProposedPrice, marketView.proposedPrice, marketView.isResolved, marketView.marketResolvedTo], [true, 'YES', false, '']);
    await expectAuditClean(server);

    await advance(599_000);
    assert.equal((await resolution(market.id)).status, 'PROPOSED');
    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.9', size: '1' })).status, 200, 'markets trade until RESOLVED');
    await advance(1_000);
    const resolved = await resolution(market.id);
    assert.deepEqual([resolved.status, resolved.finalOutcome, resolved.disputed], ['RESOLVED', 'YES', false]);
    assert.ok(resolved.settledAt && resolved.resolvedAt);

    // Carol: bond back plus the reward of 2; her open order was cancelled and its reservation released.
    assert.deepEqual(await collateral(carol), { balance: '52', locked: '0', available: '52' });
    if (server.ctx.chain.embedded) {
      // On a chain the reward is in her wallet too: the operator's side paid it once the ledger's payment was durable.
      const payout = (await chainPayouts()).find((p) => p.account === carol.proxyWallet.toLowerCase());
      assert.ok(payout);
      await expectPaidOnChain(server, payout.chain_tx_hash, carol.proxyWallet, 2_000_000n);
    }
    assert.equal((await carol.call('GET', `/orders/${resting.body.id}`)).body.status, 'CANCELLED');
    assert.equal(server.ctx.trading.engine.reads.hasMarket(market.id), false);
    expectError(await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.5', size: '1' }), 400, 'MARKET_NOT_TRADABLE');
    expectError(await alice.call('POST', `/markets/${market.id}/split`, { amount: '1' }), 400, 'MARKET_NOT_TRADABLE');
    // A resolved market takes no proposal, a user's or the operator's (EXTENSIONS.md section 9).
    expectError(await bob.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'NO' }), 400, 'MARKET_NOT_TRADABLE');
    expectError(await adminPropose(market.id, 'NO'), 400, 'MARKET_NOT_TRADABLE');

    const view = (await get(server.api(`/markets/${market.id}`))).body;
    assert.deepEqual([view.status, view.isResolved, view.isSettled, view.marketResolvedTo], ['RESOLVED', true, true, 'YES']);
    assert.equal(view.resolvedOnAdapterTimestamp, Math.floor(server.ctx.clock.nowMs() / 1000));
    const eventView = (await get(server.api(`/events/${event.id}?includeResolution=true`))).body;
    assert.equal(eventView.eventStatus, 'RESOLVED');
    assert.equal(eventView.markets[0].resolution.status, 'RESOLVED');
    const listed = (await get(server.api(`/events?isResolved=true&limit=100`))).body.data.map((e: { id: string }) => e.id);
    assert.ok(listed.includes(event.id));

    // Winners redeem 1 per token, losers burn for 0; a second redeem finds nothing.
    const redeemable = (await alice.call('GET', '/markets/redeemable-positions')).body;
    assert.deepEqual(redeemable.map((r: { marketId: string }) => r.marketId), [market.id]);
    assert.equal(redeemable[0].conditionId, market.conditionId);
    const first = await redeem(alice, [market.id]);
    assert.deepEqual(first.included, [market.id]);
    assert.match(first.txHash, /^0x[0-9a-f]{64}$/);
    assert.equal((await collateral(alice)).balance, '104');
    assert.deepEqual((await redeem(alice, [market.id])).excluded, [{ marketId: market.id, reason: 'zero-onchain-balance' }]);
    assert.deepEqual((await redeem(bob, [market.id])).included, [market.id]);
    assert.equal((await collateral(bob)).balance, '96');
    assert.deepEqual((await bob.call('GET', '/markets/redeemable-positions')).body, []);
    assert.equal(await ledgerCollateral(marketLockAccount(market.conditionId)), 0n);
    await expectAuditClean(server);
  });

  it('disputed: refusals, then the decision pays the right side and the fee account', async () => {
    const { market, alice, bob } = await tradedMarket();
    const poor = await newTrader(server, { fund: '1' });
    await advance(HOUR_MS);
    expectError(await alice.call('POST', `/markets/${market.id}/oracle/dispute`), 409, 'CONFLICT');
    expectError(await poor.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'YES' }), 400, 'INSUFFICIENT_BALANCE');
    expectError(await bob.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'MAYBE' }), 400, 'VALIDATION_FAILED');
    assert.equal((await bob.call('POST', `/markets/${market.id}/oracle/propose`, { outcome: 'NO' })).status, 200);
    expectError(await bob.call('POST', `/markets/${market.id}/oracle/dispute`), 403, 'FORBIDDEN');
    expectError(await post(server.api(`/admin/markets/${market.id}/oracle/decide`), { outcome: 'YES' }, server.adminHeaders), 409, 'CONFLICT');
    const disputed = await alice.call('POST', `/markets/${market.id}/oracle/dispute`);
    assert.equal(disputed.status, 200, JSON.stringify(disputed.body));
    assert.deepEqual([disputed.body.status, disputed.body.disputed], ['DISPUTED', true]);
    expectError(await alice.call('POST', `/markets/${market.id}/oracle/dispute`), 409, 'CONFLICT');
    const flagged = (await get(server.api(`/markets/${market.id}`))).body;
    assert.deepEqual([flagged.isDisputed, flagged.questionFlaggedTimestamp > 0], [true, true]);
    await expectAuditClean(server);

    // The window passing does not settle a disputed question.
    await advance(HOUR_MS);
    assert.equal((await resolution(market.id)).status, 'DISPUTED');
    const feesBefore = await ledgerCollateral(FEE_ACCOUNT);
    const decided = await post(server.api(`/admin/markets/${market.id}/oracle/decide`), { outcome: 'YES' }, server.adminHeaders);
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.deepEqual([decided.body.status, decided.body.finalOutcome], ['RESOLVED', 'YES']);
    // Alice (right): 94 after trading, her bond back, half of bob's (5) and the reward (2).
    assert.deepEqual(await collateral(alice), { balance: '101', locked: '0', available: '101' });
    assert.deepEqual(await collateral(bob), { balance: '86', locked: '0', available: '86' });
    assert.equal(await ledgerCollateral(FEE_ACCOUNT) - feesBefore, 5_000_000n);
    if (server.ctx.chain.embedded) {
      // On a chain the lost bond leaves bob's wallet too (relayed payBond): half to alice's wallet, half to the fee receiver.
      const payouts = await chainPayouts();
      const toAlice = payouts.find((p) => p.account === alice.proxyWallet.toLowerCase() && p.amount === '5000000');
      assert.ok(toAlice, JSON.stringify(payouts));
      await expectPaidOnChain(server, toAlice.chain_tx_hash, alice.proxyWallet, 5_000_000n);
      assert.ok(payouts.some((p) => p.account === FEE_ACCOUNT && p.amount === '5000000'), JSON.stringify(payouts));
    }
    expectError(await post(server.api(`/admin/markets/${market.id}/oracle/decide`), { outcome: 'NO' }, server.adminHeaders), 409, 'CONFLICT');
    await redeem(alice, [market.id]);
    await redeem(bob, [market.id]);
    assert.equal(await ledgerCollateral(marketLockAccount(market.conditionId)), 0n);
    await expectAuditClean(server);
  });

  it('TIE: an operator proposal (no bond) settles after the window and pays 0.5 per token', async () => {
    const { market, alice, bob } = await tradedMarket({ size: '7' });
    const proposed = await adminPropose(market.id, 'TIE');
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    await advance(600_000);
    assert.equal((await resolution(market.id)).finalOutcome, 'TIE');
    const before = [(await collateral(alice)).balance, (await collateral(bob)).balance];
    await redeem(alice, [market.id]);
    await redeem(bob, [market.id]);
    assert.deepEqual(before, ['95.8', '97.2']);
    assert.deepEqual([(await collateral(alice)).balance, (await collateral(bob)).balance], ['99.3', '100.7']);
    assert.equal(await ledgerCollateral(marketLockAccount(market.conditionId)), 0n);
    await expectAuditClean(server);
  });

  it('negRisk: one market resolving YES resolves the others NO and determines the event', async () => {
    const treasury = () => {
      const { balance, locked } = server.ctx.trading.engine.reads.balances(REWARD_TREASURY).collateral;
      return { balance, locked };
    };
    const treasuryBefore = treasury();
    const { event, markets, alice, bob } = await tradedMarket({ negRisk: true, markets: 3 });
    // Each market's reward of 2 is escrowed in the treasury at publication.
    assert.deepEqual(treasury(), { balance: treasuryBefore.balance, locked: treasuryBefore.locked + 6_000_000n });
    const second = markets[1] as PublishedMarket;
    const carol = await newTrader(server, { fund: '20' });
    assert.equal((await placeOrder(server, carol, { tokenId: second.tokenId1, side: 'BUY', price: '0.2', size: '10', negRisk: true })).status, 200);
    assert.equal((await placeOrder(server, alice, { tokenId: second.tokenId2, side: 'BUY', price: '0.8', size: '10', negRisk: true })).status, 200);
    await server.ctx.trading.engine.settle();
    await advance(HOUR_MS);
    assert.equal((await bob.call('POST', `/markets/${markets[0]!.id}/oracle/propose`, { outcome: 'NO' })).status, 200);
    assert.equal((await adminPropose(second.id, 'YES')).status, 200);
    await advance(600_000);
    const view = (await get(server.api(`/events/${event.id}?includeResolution=true`))).body;
    assert.equal(view.eventStatus, 'RESOLVED');
    assert.deepEqual([view.winningMarketId, view.isDetermined], [second.id, true]);
    assert.deepEqual(view.markets.map((m: { marketResolvedTo: string }) => m.marketResolvedTo), ['NO', 'YES', 'NO']);
    assert.deepEqual(view.markets.map((m: { resolution: { status: string } }) => m.resolution.status), ['RESOLVED', 'RESOLVED', 'RESOLVED']);
    // Bob's NO proposal on the first market was right: bond back and reward. The operator's proposal
    // and the forced NO pay none: their escrows went back, so the treasury paid exactly one reward.
    assert.equal((await collateral(bob)).locked, '0');
    assert.deepEqual(treasury(), { balance: treasuryBefore.balance - 2_000_000n, locked: treasuryBefore.locked });
    const carolBefore = (await collateral(carol)).balance;
    await redeem(carol, [second.id]);
    assert.equal(Number((await collateral(carol)).balance) - Number(carolBefore), 10);
    for (const trader of [alice, bob]) await redeem(trader, markets.map((m) => m.id));
    for (const m of markets) assert.equal(await ledgerCollateral(marketLockAccount(m.conditionId)), 0n);
    await expectAuditClean(server);
  });

  it('batch limits and exclusions; a concurrent redeem storm pays exactly once', async () => {
    const { market, alice } = await tradedMarket();
    const unresolved = (await createPublishedEvent(server, {})).markets[0]!;
    expectError(await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [] }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id, market.id] }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: Array.from({ length: 51 }, () => crypto.randomUUID()) }), 400, 'VALIDATION_FAILED');
    expectError(await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: ['nope'] }), 400, 'VALIDATION_FAILED');
    await adminPropose(market.id, 'YES');
    await advance(600_000);
    const unknown = crypto.randomUUID();
    const before = (await collateral(alice)).balance;
    const storm = await Promise.all(Array.from({ length: 8 }, () => redeem(alice, [market.id, unresolved.id, unknown])));
    assert.equal(storm.filter((r) => r.included.length === 1).length, 1);
    for (const r of storm) {
      assert.deepEqual(r.excluded.filter((e) => e.marketId !== market.id), [{ marketId: unresolved.id, reason: 'not-redeemable' }, { marketId: unknown, reason: 'not-redeemable' }]);
    }
    assert.equal(Number((await collateral(alice)).balance) - Number(before), 10);
    await expectAuditClean(server);
  });
});
