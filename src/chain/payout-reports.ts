import type { Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';

/** What a resolved binary market pays per token of outcome 1 and outcome 2, as ConditionalTokens takes it: YES [1,0], NO [0,1], TIE [1,1]. */
export type PayoutVector = readonly [bigint, bigint];

/** The operator, as the oracle of the markets it prepared (market-preparation.ts), reporting their outcomes. */
export interface PayoutReports {
  /**
   * Reports the outcome of the question (`reportPayouts`), once mined; null without a transaction
   * when it was reported already, so reporting again (a retry, a restart, a redeem that could not
   * wait) is harmless. The check and the report run with no other transaction of ours between them.
   */
  report(market: { questionId: Hex; conditionId: Hex }, payouts: PayoutVector): Promise<Hex | null>;
}

export function payoutReports(operator: ChainOperator, deployed: DeployedContracts): PayoutReports {
  const conditionalTokens = { address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi };
  return {
    report: (market, payouts) => operator.exclusive(async (chain) => {
      if ((await chain.read<bigint>({ ...conditionalTokens, functionName: 'payoutDenominator', args: [market.conditionId] })) !== 0n) return null;
      return chain.send({ ...conditionalTokens, functionName: 'reportPayouts', args: [market.questionId, [...payouts]] });
    }),
  };
}
