import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { formatUnitsPadded } from '../core/money.ts';
import { InsufficientBalanceError, type MoveBalances, type Settlement } from '../settlement/types.ts';
import { REWARD_TREASURY, userAccount } from '../settlement/accounts.ts';
import { COLLATERAL } from '../settlement/types.ts';
import { attachRowsToClaim, finishClaimRows, insertClaim, listUnfinishedClaims, lockClaim, lockClaimableRows, updateClaim, type RewardClaimRow } from '../store/rewards-repository.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';

export type ClaimOutcome = 'dispatched' | 'nothing-to-claim' | 'below-threshold';

export interface ClaimDecision {
  accepted: boolean;
  outcome: ClaimOutcome;
  claimableAmountUsdc: string;
  recipientCount: number;
  rowCount: number;
  pollUrl?: string;
  message?: string;
}

export const HISTORY_PATH = '/api/v1/rewards/me/history';

/**
 * Claims (SPEC.md "Reward claim"). The decision takes the user's claimable rows under row locks
 * and records one claim that owns them, in one transaction; the partial unique index on unfinished
 * claims and the `claim_id IS NULL` filter make concurrent claims of one user dispatch at most one.
 * Paying is asynchronous: the ledger transfer from the reward treasury, the rows turning PAID and
 * the claim turning `paid` commit together, so a crash before it leaves a `dispatched` claim that
 * `resumeUnfinished` pays at the next start, and a crash after it leaves nothing to redo: never twice.
 */
export class RewardClaims {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: { db: import('../store/database.ts').Db; clock: Clock; settlement: Settlement; moveBalances: MoveBalances; events: DomainEvents; logger: FastifyBaseLogger; minPayoutBaseUnits: bigint }) {}

  async claim(user: { userId: string; proxyWallet: string }): Promise<ClaimDecision> {
    const { db, clock, minPayoutBaseUnits } = this.deps;
    let decision: ClaimDecision & { claim?: RewardClaimRow };
    try {
      decision = await db.transaction().execute(async (tx) => {
        const rows = await lockClaimableRows(tx, user.userId);
        const total = rows.reduce((sum, row) => sum + row.amount_base_units, 0n);
        const base = { claimableAmountUsdc: formatUnitsPadded(total), recipientCount: 0, rowCount: rows.length };
        if (total === 0n) return { ...base, accepted: false, outcome: 'nothing-to-claim' as const, message: 'no claimable rewards' };
        if (total < minPayoutBaseUnits) return { ...base, accepted: false, outcome: 'below-threshold' as const, message: `the claimable balance is below the minimum payout of ${formatUnitsPadded(minPayoutBaseUnits)}` };
        const now = new Date(clock.nowMs());
        const claim: RewardClaimRow = { id: randomUUID(), user_id: user.userId, account: userAccount(user.proxyWallet), amount_base_units: total, row_count: rows.length, state: 'dispatched', tx_hash: null, error: null, created_at: now, updated_at: now };
        await insertClaim(tx, claim);
        await attachRowsToClaim(tx, claim.id, rows.map((row) => row.id));
        return { ...base, accepted: true, outcome: 'dispatched' as const, recipientCount: 1, pollUrl: HISTORY_PATH, claim };
      });
    } catch (error) {
      // Another claim of this user committed first: its rows are taken, so there is nothing left.
      if (!isUniqueViolation(error)) throw error;
      return { accepted: false, outcome: 'nothing-to-claim', claimableAmountUsdc: formatUnitsPadded(0n), recipientCount: 0, rowCount: 0, message: 'a claim is already in flight' };
    }
    const { claim, ...answer } = decision;
    if (claim) {
      this.publish(claim, 'dispatched');
      this.track(this.pay(claim.id));
    }
    return answer;
  }

  /** Pays the claims a crash left unfinished (dispatched or in-flight): at most once each. */
  async resumeUnfinished(): Promise<void> {
    for (const claim of await listUnfinishedClaims(this.deps.db)) await this.pay(claim.id);
  }

  /** Waits for the dispatches in progress (server shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error) => this.deps.logger.error({ err: error }, 'reward claim dispatch failed')).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async pay(claimId: string): Promise<void> {
    const { db, clock, settlement, moveBalances } = this.deps;
    const started = await db.transaction().execute(async (tx) => {
      const claim = await lockClaim(tx, claimId);
      if (!claim || (claim.state !== 'dispatched' && claim.state !== 'in-flight')) return undefined;
      await updateClaim(tx, claimId, { state: 'in-flight', updated_at: new Date(clock.nowMs()) });
      return claim;
    });
    if (!started) return;
    this.publish(started, 'in-flight');
    try {
      const txHash = await moveBalances(async (tx) => {
        const claim = await lockClaim(tx, claimId);
        if (claim?.state !== 'in-flight') return undefined;
        const now = new Date(clock.nowMs());
        const receipt = await settlement.transfer(tx, { from: REWARD_TREASURY, to: claim.account, asset: COLLATERAL, amount: claim.amount_base_units, kind: 'REWARD', ref: `reward-claim:${claim.id}` });
        await finishClaimRows(tx, claimId, { status: 'PAID', txHash: receipt.txHash, paidAt: now });
        await updateClaim(tx, claimId, { state: 'paid', tx_hash: receipt.txHash, updated_at: now });
        return receipt.txHash;
      });
      if (txHash) this.publish(started, 'paid', { txHash });
    } catch (error) {
      // The treasury cannot cover it: the rows wait for the operator, nothing is paid in part.
      const short = error instanceof InsufficientBalanceError;
      const message = short ? 'the reward treasury cannot cover this payout' : 'the payout could not be made; the rows can be claimed again';
      await db.transaction().execute(async (tx) => {
        await finishClaimRows(tx, claimId, { status: short ? 'NEEDS_INVESTIGATION' : 'FAILED' });
        await updateClaim(tx, claimId, { state: 'failed', error: message, updated_at: new Date(clock.nowMs()) });
      });
      if (!short) this.deps.logger.error({ err: error, claimId }, 'reward claim payment failed');
      this.publish(started, 'failed', { error: message });
    }
  }

  private publish(claim: RewardClaimRow, state: 'dispatched' | 'in-flight' | 'paid' | 'failed', extra: { txHash?: string; error?: string } = {}): void {
    this.deps.events.publish('reward-claim-update', {
      userId: claim.user_id,
      update: { claimId: claim.id, state, amountUsdc: formatUnitsPadded(claim.amount_base_units), ...extra, timestamp: this.deps.clock.nowMs() },
    });
  }
}
