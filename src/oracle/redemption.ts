import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { userAccount } from '../settlement/accounts.ts';
import type { MarketTokens, MoveBalances, Settlement } from '../settlement/types.ts';
import { findMarketsByIds } from '../store/catalogue-markets-repository.ts';
import { findRedeemableMarkets, insertRedemptions } from '../store/oracle-redemptions-repository.ts';
import type { PositionMarketRef } from '../store/position-market-columns.ts';
import type { Db } from '../store/database.ts';

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
  proxyWallet: string;
}

/**
 * Redemption of resolved markets (SPEC.md section 4.3): every included market is redeemed in one
 * ledger transaction with one txHash; unknown, unresolved or inactive markets are excluded as
 * `not-redeemable`, resolved ones where the caller holds nothing as `zero-onchain-balance`. The
 * ledger locks the caller's token rows, so concurrent redeems of the same positions pay once:
 * the later one finds nothing left.
 */
export class Redemptions {
  constructor(private readonly deps: { db: Db; clock: Clock; settlement: Settlement; moveBalances: MoveBalances }) {}

  async redeemable(user: Redeemer): Promise<RedeemablePosition[]> {
    return findRedeemableMarkets(this.deps.db, userAccount(user.proxyWallet));
  }

  async redeem(user: Redeemer, marketIds: string[]): Promise<BatchRedeemResult> {
    const { db, settlement, clock, moveBalances } = this.deps;
    const account = userAccount(user.proxyWallet);
    const rows = new Map((await findMarketsByIds(db, marketIds.map((id) => id.toLowerCase()), false)).map((m) => [m.id, m]));
    const excluded: BatchRedeemResult['excluded'] = [];
    const candidates: Array<{ marketId: string; tokens: MarketTokens }> = [];
    for (const id of marketIds) {
      const row = rows.get(id.toLowerCase());
      if (!row?.is_resolved || !row.condition_id || !row.token_id1 || !row.token_id2) excluded.push({ marketId: id, reason: 'not-redeemable' });
      else candidates.push({ marketId: row.id, tokens: { conditionId: row.condition_id, tokenId1: row.token_id1, tokenId2: row.token_id2 } });
    }
    if (candidates.length === 0) return { txHash: '', included: [], excluded };
    const receipt = await moveBalances(async (tx) => {
      const batch = await settlement.redeemBatch(tx, { account, markets: candidates.map((c) => c.tokens), ref: `redeem:${randomUUID()}` });
      if (!batch) return null;
      const at = new Date(clock.nowMs());
      const byCondition = new Map(batch.markets.map((m) => [m.conditionId, m]));
      await insertRedemptions(tx, candidates.flatMap((c) => {
        const paid = byCondition.get(c.tokens.conditionId);
        return paid ? [{
          id: randomUUID(), user_id: user.userId, account, market_id: c.marketId, tx_hash: batch.txHash,
          burned1_base_units: paid.burned[0], burned2_base_units: paid.burned[1], payout_base_units: paid.payoutBaseUnits, created_at: at,
        }] : [];
      }));
      return { txHash: batch.txHash, paid: new Set(byCondition.keys()) };
    });
    const included: string[] = [];
    for (const c of candidates) {
      if (receipt?.paid.has(c.tokens.conditionId)) included.push(c.marketId);
      else excluded.push({ marketId: c.marketId, reason: 'zero-onchain-balance' });
    }
    return { txHash: receipt?.txHash ?? '', included, excluded };
  }
}
