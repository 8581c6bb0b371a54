import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { chainMarkets } from '../../src/chain/index.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent, patchMarket, type PublishedMarket } from '../helpers/catalogue.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ZERO: Hex = `0x${'0'.repeat(64)}`;

// Markets on CHAIN=embedded (issue 39): prepared on chain as they are published, with ConditionalTokens' own ids.
describe('CHAIN=embedded markets', () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  const read = async <T>(address: Address, name: 'ConditionalTokens' | 'PmxExchange', functionName: string, args: readonly unknown[]) =>
    (await chain.readContract({ address, abi: loadArtifact(name).abi, functionName, args })) as T;

  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
  });
  after(() => server.close());

  /** Checks a published market against the chain: its ids, its condition, its exchange's registry. */
  async function assertOnChain(market: PublishedMarket, exchange: Address, makerFeeRateBps: bigint) {
    const { conditionalTokens, collateral } = server.ctx.chain.deployed!;
    const conditionId = market.conditionId as Hex;
    assert.equal(conditionId, await read<Hex>(conditionalTokens, 'ConditionalTokens', 'getConditionId', [server.ctx.chain.operator!.address, market.questionId, 2n]), 'the operator is the oracle');
    for (const [indexSet, tokenId] of [[1n, market.tokenId1], [2n, market.tokenId2]] as const) {
      const collectionId = await read<Hex>(conditionalTokens, 'ConditionalTokens', 'getCollectionId', [ZERO, conditionId, indexSet]);
      assert.equal(BigInt(tokenId), await read<bigint>(conditionalTokens, 'ConditionalTokens', 'getPositionId', [collateral, collectionId]));
      assert.equal(await read<boolean>(exchange, 'PmxExchange', 'isRegistered', [BigInt(tokenId)]), true);
      assert.equal(await read<bigint>(exchange, 'PmxExchange', 'makerFeeRateOf', [BigInt(tokenId)]), makerFeeRateBps);
    }
    assert.equal(await read<bigint>(exchange, 'PmxExchange', 'complementOf', [BigInt(market.tokenId1)]), BigInt(market.tokenId2));
    assert.equal(await read<bigint>(conditionalTokens, 'ConditionalTokens', 'getOutcomeSlotCount', [conditionId]), 2n);
    const { body } = await get(server.api(`/markets/${market.id}`));
    assert.equal(body.isInitialized, true);
    assert.equal(body.tokenId1, market.tokenId1);
    const receipt = await chain.getTransactionReceipt({ hash: body.transactionHash });
    assert.equal(receipt.status, 'success', 'the market names a mined transaction');
  }

  it('publishing prepares the condition, registers both tokens on the exchange with the maker fee rate, then initialises the market', async () => {
    const { markets } = await createPublishedEvent(server, { passiveOrderFeeRateBps: 30 });
    assert.equal(markets[0]!.isInitialized, true);
    await assertOnChain(markets[0]!, server.ctx.chain.deployed!.exchange, 30n);
  });

  it("a neg-risk event's markets are registered on the neg-risk exchange, not the main one", async () => {
    const { markets } = await createPublishedEvent(server, { markets: 2, negRisk: true });
    for (const market of markets) {
      await assertOnChain(market, server.ctx.chain.deployed!.negRiskExchange, 0n);
      assert.equal(await read<boolean>(server.ctx.chain.deployed!.exchange, 'PmxExchange', 'isRegistered', [BigInt(market.tokenId1)]), false);
    }
  });

  it('preparing a market again (a publish that failed halfway, repeated) skips what is done', async () => {
    const { markets: [market] } = await createPublishedEvent(server);
    const { operator, deployed } = server.ctx.chain;
    await chainMarkets(operator!, deployed!).prepare({ questionId: market!.questionId as Hex, conditionId: market!.conditionId as Hex, tokenId1: market!.tokenId1, tokenId2: market!.tokenId2, negRisk: false, makerFeeRateBps: 12 });
    assert.equal(await read<bigint>(deployed!.exchange, 'PmxExchange', 'makerFeeRateOf', [BigInt(market!.tokenId2)]), 12n);
  });

  it("patching a market's passive fee rate sets its maker fee rate on chain", async () => {
    const { markets: [market] } = await createPublishedEvent(server, { passiveOrderFeeRateBps: 5 });
    await patchMarket(server, market!.id, { passiveOrderFeeRateBps: 40 });
    for (const tokenId of [market!.tokenId1, market!.tokenId2]) {
      assert.equal(await read<bigint>(server.ctx.chain.deployed!.exchange, 'PmxExchange', 'makerFeeRateOf', [BigInt(tokenId)]), 40n);
    }
  });
});
