import type { Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';

/** A binary market about to be published, with the ids ConditionalTokens gives it (src/settlement/market-ids.ts). */
export interface MarketToPrepare {
  readonly questionId: Hex;
  readonly conditionId: Hex;
  /** Position ids, uint256 as decimal strings. */
  readonly tokenId1: string;
  readonly tokenId2: string;
  /** A neg-risk event's market: registered on the neg-risk exchange, whose domain its orders are signed under. */
  readonly negRisk: boolean;
  /** The market's passive (maker) fee rate, which the exchange charges a resting order at most. */
  readonly makerFeeRateBps: number;
}

/**
 * Puts a market on chain, with the operator as its oracle: prepares its binary condition on
 * ConditionalTokens, registers its two tokens as complements on its exchange, and sets their maker
 * fee rate (one call sets both). Each step is skipped when already done, so a publish that failed
 * halfway can be repeated. Resolves, once every transaction is mined, with the hash of the last one.
 */
export function prepareMarket(operator: ChainOperator, deployed: DeployedContracts, market: MarketToPrepare): Promise<Hex> {
  const conditionalTokens = { address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi };
  const exchange = { address: market.negRisk ? deployed.negRiskExchange : deployed.exchange, abi: loadArtifact('PmxExchange').abi };
  const [token1, token2] = [BigInt(market.tokenId1), BigInt(market.tokenId2)];
  return operator.exclusive(async (chain) => {
    if ((await chain.read<bigint>({ ...conditionalTokens, functionName: 'getOutcomeSlotCount', args: [market.conditionId] })) === 0n) {
      await chain.send({ ...conditionalTokens, functionName: 'prepareCondition', args: [operator.address, market.questionId, 2n] });
    }
    if (!(await chain.read<boolean>({ ...exchange, functionName: 'isRegistered', args: [token1] }))) {
      await chain.send({ ...exchange, functionName: 'registerToken', args: [token1, token2, market.conditionId] });
    }
    return chain.send({ ...exchange, functionName: 'setMakerFeeRate', args: [token1, BigInt(market.makerFeeRateBps)] });
  });
}
