import { outcomeOrThrow } from '../contract/errors.ts';
import { userAccount } from '../settlement/accounts.ts';
import type { PositionMarketRef } from '../store/position-market-columns.ts';
import type { Db } from '../store/database.ts';
import { findMergeableMarkets } from '../store/position-merges-repository.ts';

/** SPEC.md's "Excluded merge reason"; `not-binary` never applies: every market here is binary. */
export type MergeExclusion = 'not-mergeable' | 'only-one-side';

export type MergeablePosition = PositionMarketRef;

export interface BatchMergeResult {
  /** "" when nothing was merged. */
  txHash: string;
  included: string[];
  excluded: Array<{ marketId: string; reason: MergeExclusion }>;
}

export interface Merger {
  userId: string;
  address: `0x${string}`;
  proxyWallet: `0x${string}`;
}

/**
 * The merge of src/conditional-tokens/ (the engine's command, after the chain's merge where one
 * runs): one transaction for every market it can merge, or the engine's refusal.
 */
export type MergeCommand = (user: Merger, marketIds: string[]) => Promise<
  { ok: true; txHash: string; merged: { marketId: string }[]; excluded: { marketId: string; reason: MergeExclusion }[] } | { ok: false; code: string; message: string }
>;

/**
 * Merging complete sets back into collateral (SPEC.md section 4.3). No amount is sent: each market
 * merges the smaller of the caller's two available token balances, so tokens reserved by open
 * orders stay where they are (the engine, the one writer of balances, decides it against the
 * balances it reserves from, exactly as a split). Every included market merges in one
 * ledger transaction with one txHash. Unknown, DRAFT, resolved or otherwise inactive markets are
 * `not-mergeable`; ACTIVE ones without both outcomes available are `only-one-side`. A paused
 * market still merges: pausing stops order entry, not the conditional-token operations.
 */
export class PositionMerges {
  constructor(private readonly deps: { db: Db; merge: MergeCommand }) {}

  async mergeable(user: Merger): Promise<MergeablePosition[]> {
    return findMergeableMarkets(this.deps.db, userAccount(user.proxyWallet));
  }

  async merge(user: Merger, marketIds: string[]): Promise<BatchMergeResult> {
    const outcome = outcomeOrThrow(await this.deps.merge(user, marketIds.map((id) => id.toLowerCase())));
    return { txHash: outcome.txHash, included: outcome.merged.map((m) => m.marketId), excluded: outcome.excluded };
  }
}
