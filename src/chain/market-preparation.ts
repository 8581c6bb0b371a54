import { getAbiItem, type AbiEvent, type Address, type Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';

const TOKEN_REGISTERED = getAbiItem({ abi: loadArtifact('PmxExchange').abi, name: 'TokenRegistered' }) as AbiEvent;

/** A published market's place on chain: its tokens, and which exchange registers them. */
export interface MarketOnChain {
  /** Position id of outcome 1, a uint256 as a decimal string. */
  readonly tokenId1: string;
  /** A neg-risk event's market: registered on the neg-risk exchange, whose domain its orders are signed under. */
  readonly negRisk: boolean;
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
   * Prepares the market's binary condition on ConditionalTokens and registers its two tokens as
   * complements on its exchange. Each step is skipped when already done, so a publish that failed
   * halfway can be repeated. Resolves, once every transaction is mined, with the registration's
   * hash (an earlier try's, when it registered them).
   */
  prepare(market: MarketToPrepare): Promise<Hex>;
}

export function chainMarkets(operator: ChainOperator, deployed: DeployedContracts): ChainMarkets {
  const conditionalTokens = { address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi };
  const exchangeOf = (market: MarketOnChain) => ({ address: market.negRisk ? deployed.negRiskExchange : deployed.exchange, abi: loadArtifact('PmxExchange').abi });
  return {
    oracle: operator.address,
    prepare: (market) => operator.exclusive(async (chain) => {
      if ((await chain.read<bigint>({ ...conditionalTokens, functionName: 'getOutcomeSlotCount', args: [market.conditionId] })) === 0n) {
        await chain.send({ ...conditionalTokens, functionName: 'prepareCondition', args: [operator.address, market.questionId, 2n] });
      }
      const [token1, token2] = [BigInt(market.tokenId1), BigInt(market.tokenId2)];
      if (!(await chain.read<boolean>({ ...exchangeOf(market), functionName: 'isRegistered', args: [token1] }))) {
        return chain.send({ ...exchangeOf(market), functionName: 'registerToken', args: [token1, token2, market.conditionId] });
      }
      const earlier = await operator.recentLogTransaction({ address: exchangeOf(market).address, event: TOKEN_REGISTERED, args: { token: token1 } });
      if (!earlier) throw new Error(`market token ${market.tokenId1} is registered on its exchange, but not in its recent blocks`);
      return earlier;
    }),
  };
}
