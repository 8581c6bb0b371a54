import { userAccount } from '../settlement/accounts.ts';
import type { Db } from '../store/database.ts';
import { findRedeemableMarkets } from '../store/oracle-redemptions-repository.ts';
import type { PositionMarketRef } from '../store/position-market-columns.ts';

export type RedeemExclusion = 'not-redeemable' | 'zero-onchain-balance';

export type RedeemablePosition = PositionMarketRef;

export interface BatchRedeemResult {
  /** "" when nothing was redeemed. */
  txHash: string;
  included: string[];
  excluded: Array<{ marketId: string; reason: RedeemExclusion }>;
}

export interface Redeemer {
  userId: string;
  address: `0x${string}`;
  proxyWallet: `0x${string}`;
}

/** The redeem of src/conditional-tokens/: the engine's command, after the chain's redeem where one runs. */
export type RedeemCommand = (user: Redeemer, marketIds: string[]) => Promise<{ txHash: string; redeemed: { marketId: string }[]; excluded: BatchRedeemResult['excluded'] }>;

/**
 * Redemption of resolved markets (SPEC.md section 4.3), an engine command (after the chain's
 * redeem where one runs: src/conditional-tokens/): every included market is redeemed in one ledger
 * transaction; unknown, unresolved or inactive markets are
 * excluded as `not-redeemable`, resolved ones where the caller holds nothing as
 * `zero-onchain-balance`. The engine is the one writer of balances, so concurrent redeems of the
 * same positions pay once: the later one finds nothing left.
 */
export class Redemptions {
  constructor(private readonly deps: { db: Db; redeem: RedeemCommand }) {}

  async redeemable(user: Redeemer): Promise<RedeemablePosition[]> {
    return findRedeemableMarkets(this.deps.db, userAccount(user.proxyWallet));
  }

  async redeem(user: Redeemer, marketIds: string[]): Promise<BatchRedeemResult> {
    const outcome = await this.deps.redeem(user, marketIds.map((id) => id.toLowerCase()));
    return { txHash: outcome.txHash, included: outcome.redeemed.map((r) => r.marketId), excluded: outcome.excluded };
  }
}
