import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, getAddress, http, type Hex } from 'viem';
import type { EngineTrade } from '../../src/engine/state/types.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';

const ONE = 1_000_000n;
const ctfAbi = loadArtifact('ConditionalTokens').abi;

// Split, merge and redeem go through the user's proxy wallet on chain first, then the engine
// (src/conditional-tokens/); a resolution is reported on chain (EXTENSIONS.md section 14).
describe('split, merge, redeem and resolution on the embedded chain (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  let market: PublishedMarket;
  let alice: Trader;
  let bob: Trader;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
    market = (await createPublishedEvent(server, { markets: 1, liveness: 60 })).markets[0]!;
    [alice, bob] = [await newTrader(server, { fund: '100' }), await newTrader(server, { fund: '100' })];
  });
  after(async () => {
    await server?.close();
  });

  const ctf = () => ({ address: server.ctx.chain.deployed!.conditionalTokens, abi: ctfAbi });
  const tokensOnChain = async (trader: Trader, tokenId: string) => (await chain.readContract({ ...ctf(), functionName: 'balanceOf', args: [getAddress(trader.proxyWallet), BigInt(tokenId)] })) as bigint;
  const collateralOnChain = async (trader: Trader) => (await chain.readContract({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [getAddress(trader.proxyWallet)] })) as bigint;
  const units = (decimal: string) => BigInt(Math.round(Number(decimal) * 1e6));

  /** The API's balances of the trader (collateral and both tokens of the market), in base units. */
  async function apiBalances(trader: Trader, m: PublishedMarket) {
    const body = (await trader.call('GET', '/account/balance')).body;
    const token = (tokenId: string) => units(body.tokens.find((t: { tokenId: string }) => t.tokenId === tokenId)?.balance ?? '0');
    return { collateral: units(body.collateral.balance), token1: token(m.tokenId1), token2: token(m.tokenId2) };
  }

  /** The chain holds exactly what the API says the trader holds (of the first market, unless another is named). */
  async function expectChainMatchesApi(trader: Trader, m: PublishedMarket = market) {
    const onChain = { collateral: await collateralOnChain(trader), token1: await tokensOnChain(trader, m.tokenId1), token2: await tokensOnChain(trader, m.tokenId2) };
    assert.deepEqual(onChain, await apiBalances(trader, m));
  }

  async function expectMinedHash(txHash: string) {
    assert.match(txHash, /^0x[0-9a-f]{64}$/);
    assert.equal((await chain.getTransactionReceipt({ hash: txHash as Hex })).status, 'success');
  }

  it('a split happens in the wallet on chain, and its tokens sell to another trader: the trade is CONFIRMED and the chain matches the API', async () => {
    const split = await alice.call('POST', `/markets/${market.id}/split`, { amount: '10' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    await expectMinedHash(split.body.txHash);
    assert.equal(await tokensOnChain(alice, market.tokenId1), 10n * ONE);
    assert.equal(await tokensOnChain(alice, market.tokenId2), 10n * ONE);
    assert.equal(await collateralOnChain(alice), 90n * ONE);

    const maker = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.6', size: '4' });
    assert.equal(maker.status, 200, JSON.stringify(maker.body));
    const taker = await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'BUY', price: '0.6', size: '4' });
    assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
    await server.ctx.trading.engine.settle();
    const [trade] = (await alice.call('GET', `/trades?user=${alice.proxyWallet}`)).body.data ?? [];
    assert.equal(trade?.status, 'CONFIRMED', JSON.stringify(trade));
    assert.equal(await tokensOnChain(bob, market.tokenId1), 4n * ONE);
    await expectChainMatchesApi(alice);
    await expectChainMatchesApi(bob);
    await expectAuditClean(server);
  });

  it('a merge takes the wallet\'s on-chain sets less what open orders reserve, and merges them on chain', async () => {
    // Alice holds 6 of token 1 and 10 of token 2; a resting SELL reserves 2 of token 1.
    const resting = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'SELL', price: '0.9', size: '2' });
    assert.equal(resting.status, 200, JSON.stringify(resting.body));
    const merged = await alice.call('POST', '/markets/merge-positions/batch', { marketIds: [market.id] });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual(merged.body.included, [market.id]);
    await expectMinedHash(merged.body.txHash);
    assert.equal(await tokensOnChain(alice, market.tokenId1), 2n * ONE);
    assert.equal(await tokensOnChain(alice, market.tokenId2), 6n * ONE);
    await expectChainMatchesApi(alice);
    // Nothing left to merge: only one side is free.
    const again = await alice.call('POST', '/markets/merge-positions/batch', { marketIds: [market.id] });
    assert.deepEqual(again.body.excluded, [{ marketId: market.id, reason: 'only-one-side' }]);
    assert.equal((await alice.call('POST', `/orders/${resting.body.id}/cancel`)).status, 200);
    await expectAuditClean(server);
  });

  it('an engine that refuses after the chain split has the split undone on chain, and answers its refusal', async () => {
    const carol = await newTrader(server, { fund: '10' });
    const { engine } = server.ctx.trading;
    const split = engine.split.bind(engine);
    // Between the chain's split and the engine's, an order reserves Carol's collateral.
    engine.split = async (request) => {
      engine.split = split;
      const order = await placeOrder(server, carol, { tokenId: market.tokenId1, side: 'BUY', price: '0.5', size: '10' });
      assert.equal(order.status, 200, JSON.stringify(order.body));
      return split(request);
    };
    const refused = await carol.call('POST', `/markets/${market.id}/split`, { amount: '10' });
    engine.split = split;
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'INSUFFICIENT_BALANCE');
    assert.equal(await tokensOnChain(carol, market.tokenId1), 0n);
    assert.equal(await tokensOnChain(carol, market.tokenId2), 0n);
    assert.equal(await collateralOnChain(carol), 10n * ONE);
    await expectChainMatchesApi(carol);
    await expectAuditClean(server);
  });

  it('an engine that refuses after the chain merged has the sets split back on chain, and the merge starts again with what is left available', async () => {
    const erin = await newTrader(server, { fund: '10' });
    assert.equal((await erin.call('POST', `/markets/${market.id}/split`, { amount: '4' })).status, 200);
    const { engine } = server.ctx.trading;
    const merge = engine.merge.bind(engine);
    // Between the chain's merge and the engine's, a SELL reserves one of the merged tokens.
    let attempts = 0;
    engine.merge = async (request) => {
      attempts += 1;
      if (attempts === 1) {
        const order = await placeOrder(server, erin, { tokenId: market.tokenId2, side: 'SELL', price: '0.9', size: '1' });
        assert.equal(order.status, 200, JSON.stringify(order.body));
      }
      return merge(request);
    };
    const merged = await erin.call('POST', '/markets/merge-positions/batch', { marketIds: [market.id] });
    engine.merge = merge;
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual(merged.body.included, [market.id]);
    assert.equal(attempts, 2, 'refused once (4 merged on chain, split back), then 3 merged');
    // The SELL's one token of outcome 2 stays with Erin, with its pair's other token.
    assert.equal(await tokensOnChain(erin, market.tokenId1), 1n * ONE);
    assert.equal(await tokensOnChain(erin, market.tokenId2), 1n * ONE);
    await expectChainMatchesApi(erin);
    await expectAuditClean(server);
  });

  it('a resolution is reported on chain, and a redeem pays the wallet on chain', async () => {
    const proposed = await post(server.api(`/admin/markets/${market.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders);
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal((await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders)).status, 200);
    await waitFor(async () => (await chain.readContract({ ...ctf(), functionName: 'payoutDenominator', args: [market.conditionId as Hex] })) !== 0n, 'the resolution reported on chain');
    const numerators = await Promise.all([0n, 1n].map((i) => chain.readContract({ ...ctf(), functionName: 'payoutNumerators', args: [market.conditionId as Hex, i] })));
    assert.deepEqual(numerators, [1n, 0n]);

    // Bob holds 4 YES: they pay 4.
    const before = await collateralOnChain(bob);
    const redeemed = await bob.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.deepEqual(redeemed.body.included, [market.id]);
    await expectMinedHash(redeemed.body.txHash);
    assert.equal(await collateralOnChain(bob), before + 4n * ONE);
    assert.equal(await tokensOnChain(bob, market.tokenId1), 0n);
    await expectChainMatchesApi(bob);
    const again = await bob.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id] });
    assert.deepEqual(again.body.excluded, [{ marketId: market.id, reason: 'zero-onchain-balance' }]);
    // Alice's 2 YES pay 2; her 6 NO burn for nothing.
    assert.deepEqual((await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id] })).body.included, [market.id]);
    await expectChainMatchesApi(alice);
    await expectAuditClean(server);
  });

  it('a resolution the chain missed is reported by a redeem that needs it, and by the reporter when it starts', async () => {
    const reporter = server.ctx.conditionalTokens.reporter!;
    const dave = await newTrader(server, { fund: '10' });
    const [redeemed, swept] = [(await createPublishedEvent(server, { markets: 1, liveness: 60 })).markets[0]!, (await createPublishedEvent(server, { markets: 1, liveness: 60 })).markets[0]!];
    assert.equal((await dave.call('POST', `/markets/${redeemed.id}/split`, { amount: '2' })).status, 200);
    const denominator = async (m: PublishedMarket) => (await chain.readContract({ ...ctf(), functionName: 'payoutDenominator', args: [m.conditionId as Hex] })) as bigint;
    // The engine's node stops reporting (as if it crashed after the resolutions were durable).
    reporter.stop();
    for (const [m, outcome] of [[redeemed, 'NO'], [swept, 'TIE']] as const) {
      assert.equal((await post(server.api(`/admin/markets/${m.id}/oracle/propose`), { outcome }, server.adminHeaders)).status, 200);
    }
    assert.equal((await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders)).status, 200);
    assert.equal((await get(server.api(`/markets/${swept.id}/resolution`))).body.status, 'RESOLVED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual([await denominator(redeemed), await denominator(swept)], [0n, 0n]);

    const before = await collateralOnChain(dave);
    const redeem = await dave.call('POST', '/markets/redeem-positions/batch', { marketIds: [redeemed.id] });
    assert.equal(redeem.status, 200, JSON.stringify(redeem.body));
    assert.equal(await denominator(redeemed), 1n);
    assert.equal(await collateralOnChain(dave), before + 2n * ONE);
    await expectChainMatchesApi(dave, redeemed);

    reporter.start();
    await waitFor(async () => (await denominator(swept)) !== 0n, 'the start\'s sweep to report the missed resolution');
    const numerators = await Promise.all([0n, 1n].map((i) => chain.readContract({ ...ctf(), functionName: 'payoutNumerators', args: [swept.conditionId as Hex, i] })));
    assert.deepEqual(numerators, [1n, 1n]);
    await expectAuditClean(server);
  });

  it('a TIE over an odd amount of both tokens pays in the ledger what the chain pays, each token\'s half rounded down', async () => {
    const erin = await newTrader(server, { fund: '1' });
    const tied = (await createPublishedEvent(server, { markets: 1, liveness: 60 })).markets[0]!;
    // 3 base units of each token: ConditionalTokens pays 1 + 1, where the ledger paid half of 6.
    assert.equal((await erin.call('POST', `/markets/${tied.id}/split`, { amount: '0.000003' })).status, 200);
    assert.equal((await post(server.api(`/admin/markets/${tied.id}/oracle/propose`), { outcome: 'TIE' }, server.adminHeaders)).status, 200);
    assert.equal((await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders)).status, 200);
    const before = await collateralOnChain(erin);
    const redeem = await erin.call('POST', '/markets/redeem-positions/batch', { marketIds: [tied.id] });
    assert.equal(redeem.status, 200, JSON.stringify(redeem.body));
    assert.equal(await collateralOnChain(erin), before + 2n);
    await expectChainMatchesApi(erin, tied);
    await expectAuditClean(server);
  });

  // The exchange refuses a resolved market's fills (MarketResolved, contracts/README.md), so the
  // resolution reporter waits until the market's trades matched before the resolution are mined
  // before it reports the payouts on chain (src/conditional-tokens/README.md).
  it('a trade matched right before its market resolves settles CONFIRMED, and the payouts are reported only after it is mined', async () => {
    const { engine } = server.ctx.trading;
    const resolving = (await createPublishedEvent(server, { markets: 1, liveness: 60 })).markets[0]!;
    const [carol, dave] = [await newTrader(server, { fund: '100' }), await newTrader(server, { fund: '100' })];
    const denominator = async () => (await chain.readContract({ ...ctf(), functionName: 'payoutDenominator', args: [resolving.conditionId as Hex] })) as bigint;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Settlement holds the match back (as a busy sender or a slow chain would) until the market has resolved.
    const settlement = (engine as unknown as { chain: { matched(trades: readonly EngineTrade[]): void } }).chain;
    const matched = settlement.matched.bind(settlement);
    const held: EngineTrade[] = [];
    settlement.matched = (trades) => void held.push(...trades);
    try {
      // A MINT: Carol buys 10 YES at 0.40, Dave 10 NO at 0.60.
      const maker = await placeOrder(server, carol, { tokenId: resolving.tokenId1, side: 'BUY', price: '0.4', size: '10' });
      assert.equal(maker.status, 200, JSON.stringify(maker.body));
      const taker = await placeOrder(server, dave, { tokenId: resolving.tokenId2, side: 'BUY', price: '0.6', size: '10' });
      assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
      assert.equal(held.length, 1);

      // YES wins while the trade waits to be sent.
      assert.equal((await post(server.api(`/admin/markets/${resolving.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders)).status, 200);
      assert.equal((await get(server.api(`/markets/${resolving.id}/resolution`))).body.status, 'RESOLVED');
      await engine.announced();
      assert.equal(engine.reads.tradesAwaitingChain(resolving.id), 1);
      await pause(1_000);
      assert.equal(await denominator(), 0n, 'not reported while the trade is not mined');
    } finally {
      settlement.matched = matched;
    }
    matched(held);
    await engine.settle();
    const [trade] = (await carol.call('GET', `/trades?user=${carol.proxyWallet}`)).body.data ?? [];
    assert.equal(trade?.status, 'CONFIRMED', JSON.stringify(trade));
    for (let deadline = Date.now() + 10_000; (await denominator()) === 0n; await pause(50)) if (Date.now() > deadline) throw new Error('the resolution was not reported on chain');
    const numerators = await Promise.all([0n, 1n].map((i) => chain.readContract({ ...ctf(), functionName: 'payoutNumerators', args: [resolving.conditionId as Hex, i] })));
    assert.deepEqual(numerators, [1n, 0n]);

    // Carol's 10 YES pay 10 on chain, as in the ledger.
    assert.equal(await tokensOnChain(carol, resolving.tokenId1), 10n * ONE);
    const redeemed = await carol.call('POST', '/markets/redeem-positions/batch', { marketIds: [resolving.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.deepEqual(redeemed.body.included, [resolving.id]);
    assert.equal(await tokensOnChain(carol, resolving.tokenId1), 0n);
    await expectAuditClean(server);
  });
});

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
