import type { Address } from 'viem';
import type { EngineFailure } from '../engine/types.ts';
import type { MergeOutcome, RedeemOutcome, SplitOutcome } from '../engine/state/balance-commands.ts';

/** The caller whose proxy wallet a split, merge or redeem works on (its sign-in address deploys the wallet). */
export interface PositionHolder {
  readonly userId: string;
  readonly address: Address;
  readonly proxyWallet: Address;
}

/**
 * Split, merge and redeem of a holder's positions, as the routes of EXTENSIONS.md section 2 and
 * SPEC.md section 4.3 ask for them. They answer as the engine's commands do (a refusal is data);
 * a chain that fails throws a 503 AppError. Market ids are lowercase.
 */
export interface ConditionalTokenOperations {
  split(holder: PositionHolder, marketId: string, amountBaseUnits: bigint): Promise<SplitOutcome>;
  merge(holder: PositionHolder, marketIds: string[]): Promise<MergeOutcome | EngineFailure>;
  redeem(holder: PositionHolder, marketIds: string[]): Promise<RedeemOutcome>;
}
