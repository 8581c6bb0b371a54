import type { Address, Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator, ContractCall } from './operator.ts';

/** A published market's place on chain: its tokens, and which exchange registers them. */
export interface MarketOnChain {
  /** Position id of outcome 1, a uint256 as a decimal string. */
  readonly tokenId1: string;
  /** A neg-risk event's market: registered on the neg-risk exchange, whose domain its orders are signed under. */
  readonly negRisk: boolean;
  /** The market's passive (maker) fee rate, which the exchange charges a resting order at most. */
  readonly makerFeeRateBps: number;
}

/** A binary market about to be published, with the ids ConditionalTokens gives it (src/settlement/market-ids.ts). */
export interface MarketToPrepare extends MarketOnChain {
  readonly questionId: Hex;
  readonly conditionId: Hex;
  readonly tokenId2: string;
}

/** What the operator does for markets on a chain with the exchange's contracts; the operator is their oracle. */
export interface ChainMarkets {
  readonly oracle: Address;
  /**
   * Prepares the market's binary condition on ConditionalTokens, registers its two tokens as
   * complements on its exchange and sets their maker fee rate (one call sets both). Each step is
   * skipped when already done, so a publish that failed halfway can be repeated. Resolves, once
   * every transaction is mined, with the hash of the last one.
   */
  prepare(market: MarketToPrepare): Promise<Hex>;
  /** Sets a published market's maker fee rate on its exchange (an admin patch of its passive rate); resolves once mined. */
  setMakerFeeRate(market: MarketOnChain): Promise<Hex>;
}

export function chainMarkets(operator: ChainOperator, deployed: DeployedContracts): ChainMarkets {
  const conditionalTokens = { address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi };
  const exchangeOf = (market: MarketOnChain) => ({ address: market.negRisk ? deployed.negRiskExchange : deployed.exchange, abi: loadArtifact('PmxExchange').abi });
  const makerFeeRate = (market: MarketOnChain): ContractCall => ({ ...exchangeOf(market), functionName: 'setMakerFeeRate', args: [BigInt(market.tokenId1), BigInt(market.makerFeeRateBps)] });
  return {
    oracle: operator.address,
    prepare: (market) => operator.exclusive(async (chain) => {
      if ((await chain.read<bigint>({ ...conditionalTokens, functionName: 'getOutcomeSlotCount', args: [market.conditionId] })) === 0n) {
        await chain.send({ ...conditionalTokens, functionName: 'prepareCondition', args: [operator.address, market.questionId, 2n] });
      }
      const [token1, token2] = [BigInt(market.tokenId1), BigInt(market.tokenId2)];
      if (!(await chain.read<boolean>({ ...exchangeOf(market), functionName: 'isRegistered', args: [token1] }))) {
        await chain.send({ ...exchangeOf(market), functionName: 'registerToken', args: [token1, token2, market.conditionId] });
      }
      return chain.send(makerFeeRate(market));
    }),
    setMakerFeeRate: (market) => operator.exclusive((chain) => chain.send(makerFeeRate(market))),
  };
}
