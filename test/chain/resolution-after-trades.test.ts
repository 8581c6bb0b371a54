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

// The exchange refuses a resolved market's fills (MarketResolved, contracts/README.md), so the
// resolution reporter waits until the market's trades matched before the resolution are mined
// before it reports the payouts on chain (src/conditional-tokens/README.md).
describe('a trade matched right before its market resolves, on the embedded chain (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
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
  const denominator = async () => (await chain.readContract({ ...ctf(), functionName: 'payoutDenominator', args: [market.conditionId as Hex] })) as bigint;
  const tokensOnChain = async (trader: Trader, tokenId: string) => (await chain.readContract({ ...ctf(), functionName: 'balanceOf', args: [getAddress(trader.proxyWallet), BigInt(tokenId)] })) as bigint;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('settles CONFIRMED, and the payouts are reported only after it is mined', async () => {
    const { engine } = server.ctx.trading;
    // Settlement holds the match back (as a busy sender or a slow chain would) until the market has resolved.
    const settlement = (engine as unknown as { chain: { matched(trades: readonly EngineTrade[]): void } }).chain;
    const matched = settlement.matched.bind(settlement);
    const held: EngineTrade[] = [];
    settlement.matched = (trades) => void held.push(...trades);
    try {
      // A MINT: Alice buys 10 YES at 0.40, Bob 10 NO at 0.60.
      const maker = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '10' });
      assert.equal(maker.status, 200, JSON.stringify(maker.body));
      const taker = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '10' });
      assert.equal(taker.body.status, 'EXECUTED', JSON.stringify(taker.body));
      assert.equal(held.length, 1);

      // YES wins while the trade waits to be sent.
      assert.equal((await post(server.api(`/admin/markets/${market.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 61_000 }, server.adminHeaders)).status, 200);
      assert.equal((await get(server.api(`/markets/${market.id}/resolution`))).body.status, 'RESOLVED');
      await engine.announced();
      assert.equal(engine.reads.tradesAwaitingChain(market.id), 1);
      await pause(1_000);
      assert.equal(await denominator(), 0n, 'not reported while the trade is not mined');
    } finally {
      settlement.matched = matched;
    }
    matched(held);
    await engine.settle();
    const [trade] = (await alice.call('GET', `/trades?user=${alice.proxyWallet}`)).body.data ?? [];
    assert.equal(trade?.status, 'CONFIRMED', JSON.stringify(trade));
    for (let deadline = Date.now() + 10_000; (await denominator()) === 0n; await pause(50)) if (Date.now() > deadline) throw new Error('the resolution was not reported on chain');
    const numerators = await Promise.all([0n, 1n].map((i) => chain.readContract({ ...ctf(), functionName: 'payoutNumerators', args: [market.conditionId as Hex, i] })));
    assert.deepEqual(numerators, [1n, 0n]);

    // Alice's 10 YES pay 10 on chain, as in the ledger.
    assert.equal(await tokensOnChain(alice, market.tokenId1), 10n * ONE);
    const redeemed = await alice.call('POST', '/markets/redeem-positions/batch', { marketIds: [market.id] });
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.deepEqual(redeemed.body.included, [market.id]);
    assert.equal(await tokensOnChain(alice, market.tokenId1), 0n);
    await expectAuditClean(server);
  });
});
