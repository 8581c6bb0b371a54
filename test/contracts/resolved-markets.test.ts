import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { ABIS, type ExchangeChain, type Market, type MatchArgs, matchOf, ONE, startExchangeChain } from '../helpers/exchange-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/**
 * A market whose condition has its payouts reported (ConditionalTokens' `reportPayouts`) trades no
 * more on either exchange: matchOrders, matchOrdersBatch, fillOrder and fillOrders revert
 * `MarketResolved(conditionId)` for it, for every fill type, where before the report the same fills
 * settle. Without it a resting bid for the losing token, still valid on chain, filled at its signed
 * price after the market resolved (the security review of 2026-12-06).
 */
type FillType = 'COMPLEMENTARY' | 'MINT' | 'MERGE';
const FILL_TYPES: FillType[] = ['COMPLEMENTARY', 'MINT', 'MERGE'];

describe('resolved markets', { skip: storeIndependent('the chain') }, () => {
  let chain: ExchangeChain;
  let taker: HDAccount;
  let maker: HDAccount;

  before(async () => {
    chain = await startExchangeChain();
    [taker, maker] = [3, 4].map((i) => chain.anvil.account(i)) as [HDAccount, HDAccount];
    for (const trader of [taker, maker]) await chain.deployWallet(trader.address);
    await chain.approveExchanges(chain.operator);
  });
  after(() => chain?.stop());

  /** Both traders' wallets, and the operator itself, hold `amount` of the market's two tokens and of collateral. */
  async function fund(market: Market, amount: bigint): Promise<void> {
    for (const trader of [taker, maker]) {
      await chain.giveWalletSets(trader, market, amount);
      await chain.mint(await chain.walletOf(trader.address), amount);
    }
    await chain.giveSets(chain.operator, market, amount);
    await chain.mint(chain.operator.address, amount);
  }

  /** One single-maker match of `type`, 10 tokens, fresh orders: the taker at 0.60 of YES, the maker at its own price. */
  async function freshMatch(market: Market, type: FillType, negRisk: boolean): Promise<MatchArgs> {
    const size = 10n * ONE;
    const takerSide = type === 'MERGE' ? 'SELL' : 'BUY';
    const makerSide = type === 'COMPLEMENTARY' ? 'SELL' : takerSide;
    const makerToken = type === 'COMPLEMENTARY' ? market.yes : market.no;
    const makerPrice = type === 'COMPLEMENTARY' ? 600_000n : 400_000n;
    const takerOrder = await chain.signOrder({ signer: taker, tokenId: market.yes, side: takerSide, priceMicros: 600_000n, size, feeRateBps: 100n, negRisk });
    const makerOrder = await chain.signOrder({ signer: maker, tokenId: makerToken, side: makerSide, priceMicros: makerPrice, size, feeRateBps: 100n, negRisk });
    return matchOf(takerOrder, [makerOrder]);
  }

  const matchRevert = (exchange: Address, match: MatchArgs) => chain.matchRevert(match.takerOrder, [...match.makerOrders], match.takerFillAmount, [...match.makerFillAmounts], exchange);
  const batchRevert = (exchange: Address, matches: MatchArgs[]) => chain.revertOf(chain.operator, exchange, ABIS.exchange, 'matchOrdersBatch', [matches]);
  const operatorRevert = (exchange: Address, functionName: string, args: readonly unknown[]) => chain.revertOf(chain.operator, exchange, ABIS.exchange, functionName, args);

  /** The arguments of the custom error the call reverts with. */

  for (const negRisk of [false, true]) {
    it(`on the ${negRisk ? 'neg-risk' : 'standard'} exchange, fills COMPLEMENTARY, MINT and MERGE before reportPayouts and refuses each after it, in a match, a batch and an operator fill`, async () => {
      const exchange = negRisk ? chain.contracts.negRiskExchange : chain.contracts.exchange;
      const market = await chain.createMarket(negRisk);
      const other = await chain.createMarket(negRisk);
      await fund(market, 200n * ONE);
      await fund(other, 50n * ONE);

      // Before the report every fill type settles, one by one and in a batch.
      for (const type of FILL_TYPES) {
        const match = await freshMatch(market, type, negRisk);
        assert.equal(await matchRevert(exchange, match), undefined, `${type} before the report`);
        await chain.match(match.takerOrder, [...match.makerOrders], match.takerFillAmount, [...match.makerFillAmounts], exchange);
      }
      const batch = await Promise.all(FILL_TYPES.map((type) => freshMatch(market, type, negRisk)));
      assert.equal(await batchRevert(exchange, batch), undefined, 'a batch before the report');
      await chain.send(chain.operator, exchange, ABIS.exchange, 'matchOrdersBatch', [batch]);
      // A resting bid for NO at 0.60, signed before the market resolves, and partly filled by the operator.
      const noBid = await chain.signOrder({ signer: maker, tokenId: market.no, side: 'BUY', priceMicros: 600_000n, size: 20n * ONE, negRisk });
      await chain.send(chain.operator, exchange, ABIS.exchange, 'fillOrders', [[noBid], [6n * ONE], [0n]]);
      assert.equal(await chain.read(exchange, ABIS.exchange, 'remainingOf', [noBid]), 6n * ONE);

      // YES wins.
      await chain.send(chain.admin, chain.contracts.conditionalTokens, ABIS.ctf, 'reportPayouts', [market.questionId, [1n, 0n]]);

      for (const type of FILL_TYPES) {
        const match = await freshMatch(market, type, negRisk);
        assert.equal(await matchRevert(exchange, match), 'MarketResolved', `${type} after the report`);
        assert.deepEqual((await chain.revertErrorOf(chain.operator, exchange, ABIS.exchange, 'matchOrders', [match.takerOrder, match.makerOrders, match.takerFillAmount, match.makerFillAmounts, match.makerFeeRatesBps, match.part]))?.args, [market.conditionId]);
      }
      const late = await Promise.all(FILL_TYPES.map((type) => freshMatch(market, type, negRisk)));
      assert.equal(await batchRevert(exchange, late), 'MarketResolved', 'a batch after the report');
      const unresolved = await freshMatch(other, 'COMPLEMENTARY', negRisk);
      assert.equal(await batchRevert(exchange, [unresolved, late[0]!]), 'MarketResolved', 'a batch with one match of the resolved market, all or nothing');
      assert.equal(await batchRevert(exchange, [unresolved]), undefined, 'another market still trades');
      // The bid's rest cannot be filled by the operator with the worthless NO tokens, alone or among other orders.
      const spent = await chain.collateralOf(await chain.walletOf(maker.address));
      assert.equal(await operatorRevert(exchange, 'fillOrder', [noBid, 6n * ONE, 0n]), 'MarketResolved');
      assert.equal(await operatorRevert(exchange, 'fillOrders', [[unresolved.makerOrders[0]!, noBid], [ONE, 6n * ONE], [0n, 0n]]), 'MarketResolved');
      assert.equal(await operatorRevert(exchange, 'fillOrder', [unresolved.makerOrders[0]!, ONE, 0n]), undefined, 'an order of another market still fills');
      assert.equal(await chain.collateralOf(await chain.walletOf(maker.address)), spent);
      // Cancels stay open.
      assert.equal(await chain.revertOf(maker, exchange, ABIS.exchange, 'cancelOrder', [noBid]), undefined);
    });
  }
});
