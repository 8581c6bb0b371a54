import { randomUUID } from 'node:crypto';
import { userAccount } from '../settlement/accounts.ts';
import type { MarketTokens, MoveBalances, Settlement } from '../settlement/types.ts';
import { findMarketsByIds } from '../store/catalogue-markets-repository.ts';
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
  proxyWallet: string;
}

/**
 * Merging complete sets back into collateral (SPEC.md section 4.3). No amount is sent: each market
 * merges the smaller of the caller's two available token balances, so tokens reserved by open
 * orders stay where they are (the ledger checks availability under row locks, the same locks the
 * engine's reservations take, exactly as a split does). Every included market merges in one
 * ledger transaction with one txHash. Unknown, DRAFT, resolved or otherwise inactive markets are
 * `not-mergeable`; ACTIVE ones without both outcomes available are `only-one-side`. A paused
 * market still merges: pausing stops order entry, not the conditional-token operations.
 */
export class PositionMerges {
  constructor(private readonly deps: { db: Db; settlement: Settlement; moveBalances: MoveBalances }) {}

  async mergeable(user: Merger): Promise<MergeablePosition[]> {
    return findMergeableMarkets(this.deps.db, userAccount(user.proxyWallet));
  }

  async merge(user: Merger, marketIds: string[]): Promise<BatchMergeResult> {
    const { db, settlement, moveBalances } = this.deps;
    const rows = new Map((await findMarketsByIds(db, marketIds.map((id) => id.toLowerCase()), false)).map((m) => [m.id, m]));
    const excluded: BatchMergeResult['excluded'] = [];
    const candidates: Array<{ marketId: string; tokens: MarketTokens }> = [];
    for (const id of marketIds) {
      const row = rows.get(id.toLowerCase());
      if (row?.status !== 'ACTIVE' || row.is_resolved || !row.condition_id || !row.token_id1 || !row.token_id2) excluded.push({ marketId: id, reason: 'not-mergeable' });
      else candidates.push({ marketId: row.id, tokens: { conditionId: row.condition_id, tokenId1: row.token_id1, tokenId2: row.token_id2 } });
    }
    if (candidates.length === 0) return { txHash: '', included: [], excluded };
    const account = userAccount(user.proxyWallet);
    const receipt = await moveBalances((tx) => settlement.mergeBatch(tx, { account, markets: candidates.map((c) => c.tokens), ref: `merge:${randomUUID()}` }));
    const merged = new Set(receipt?.markets.map((m) => m.conditionId));
    const included: string[] = [];
    for (const c of candidates) {
      if (merged.has(c.tokens.conditionId)) included.push(c.marketId);
      else excluded.push({ marketId: c.marketId, reason: 'only-one-side' });
    }
    return { txHash: receipt?.txHash ?? '', included, excluded };
  }
}
