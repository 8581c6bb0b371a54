import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, http, type Address, type Hex, type PublicClient } from 'viem';
import { chainMarkets } from '../../src/chain/index.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, patchMarket, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectSettledOnChain, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder } from '../helpers/trader.ts';

const ZERO: Hex = `0x${'0'.repeat(64)}`;

// Markets on CHAIN=embedded (issue 39): prepared on chain as they are published, with ConditionalTokens' own ids.
describe('CHAIN=embedded markets', () => {
  let server: TestServer;
  let chain: PublicClient;
  const read = async <T>(address: Address, name: 'ConditionalTokens' | 'PmxExchange', functionName: string, args: readonly unknown[]) =>
    (await chain.readContract({ address, abi: loadArtifact(name).abi, functionName, args })) as T;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) }) as PublicClient;
  });
  after(() => server.close());

  /** Checks a published market against the chain: its ids, its condition, its exchange's registry. */
  async function assertOnChain(market: PublishedMarket, exchange: Address) {
    const { conditionalTokens, collateral } = server.ctx.chain.deployed!;
    const conditionId = market.conditionId as Hex;
    assert.equal(conditionId, await read<Hex>(conditionalTokens, 'ConditionalTokens', 'getConditionId', [server.ctx.chain.operator!.address, market.questionId, 2n]), 'the operator is the oracle');
    for (const [indexSet, tokenId] of [[1n, market.tokenId1], [2n, market.tokenId2]] as const) {
      const collectionId = await read<Hex>(conditionalTokens, 'ConditionalTokens', 'getCollectionId', [ZERO, conditionId, indexSet]);
      assert.equal(BigInt(tokenId), await read<bigint>(conditionalTokens, 'ConditionalTokens', 'getPositionId', [collateral, collectionId]));
      assert.equal(await read<boolean>(exchange, 'PmxExchange', 'isRegistered', [BigInt(tokenId)]), true);
    }
    assert.equal(await read<bigint>(exchange, 'PmxExchange', 'complementOf', [BigInt(market.tokenId1)]), BigInt(market.tokenId2));
    assert.equal(await read<bigint>(conditionalTokens, 'ConditionalTokens', 'getOutcomeSlotCount', [conditionId]), 2n);
    const { body } = await get(server.api(`/markets/${market.id}`));
    assert.equal(body.isInitialized, true);
    assert.equal(body.tokenId1, market.tokenId1);
    const receipt = await chain.getTransactionReceipt({ hash: body.transactionHash });
    assert.equal(receipt.status, 'success', 'the market names a mined transaction');
  }

  it('publishing prepares the condition, registers both tokens on the exchange, then initialises the market', async () => {
    const { markets } = await createPublishedEvent(server);
    assert.equal(markets[0]!.isInitialized, true);
    await assertOnChain(markets[0]!, server.ctx.chain.deployed!.exchange);
  });

  it("a neg-risk event's markets are registered on the neg-risk exchange, not the main one", async () => {
    const { markets } = await createPublishedEvent(server, { markets: 2, negRisk: true });
    for (const market of markets) {
      await assertOnChain(market, server.ctx.chain.deployed!.negRiskExchange);
      assert.equal(await read<boolean>(server.ctx.chain.deployed!.exchange, 'PmxExchange', 'isRegistered', [BigInt(market.tokenId1)]), false);
    }
  });

  it("preparing a market again (a publish that failed halfway, repeated) sends nothing, and answers the registration's transaction", async () => {
    const { markets: [market] } = await createPublishedEvent(server);
    const { operator, deployed } = server.ctx.chain;
    const nonce = await chain.getTransactionCount({ address: operator!.address });
    const hash = await chainMarkets(operator!, deployed!).prepare({ questionId: market!.questionId as Hex, conditionId: market!.conditionId as Hex, tokenId1: market!.tokenId1, tokenId2: market!.tokenId2, negRisk: false });
    assert.equal(hash, (await get(server.api(`/markets/${market!.id}`))).body.transactionHash);
    assert.equal(await chain.getTransactionCount({ address: operator!.address }), nonce);
  });

  it("a resting order pays the maker rate it was accepted with, on chain as in the ledger, when the operator changes the market's rate meanwhile", async () => {
    const { markets: [market] } = await createPublishedEvent(server, { orderFeeRateBps: 50, passiveOrderFeeRateBps: 0 });
    const [maker, taker] = await Promise.all([newTrader(server, { fund: '100' }), newTrader(server, { fund: '100' })]);
    const bid = { tokenId: market!.tokenId1, side: 'BUY', price: '0.4', size: '10', feeRateBps: 50 } as const;
    assert.equal((await placeOrder(server, maker, bid)).status, 200, 'rests at a maker rate of 0');
    await patchMarket(server, market!.id, { passiveOrderFeeRateBps: 40 });
    assert.equal((await placeOrder(server, maker, bid)).status, 200, 'rests at 40');
    const filled = await placeOrder(server, taker, { tokenId: market!.tokenId2, side: 'BUY', price: '0.6', size: '20', feeRateBps: 50 });
    assert.equal(filled.status, 200, JSON.stringify(filled.body));
    await untilEveryTradeSettled(server, [maker, taker]);
    // 4 + 4 for the tokens, 40 bps of min(0.4, 0.6) × 10 = 0.016 on the second bid only (the chain charged 0.016 on both before).
    assert.equal((await maker.call('GET', '/account/balance')).body.collateral.balance, '91.984');
    await expectSettledOnChain(server, chain, market!, [maker, taker]);
    await expectAuditClean(server);
  });
});
