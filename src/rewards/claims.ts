import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { formatUnitsPadded } from '../core/money.ts';
import { userAccount } from '../settlement/accounts.ts';
import { attachRowsToClaim, finishClaimRows, insertClaim, listUnfinishedClaims, lockClaim, lockClaimableRows, reopenUncoveredPayouts, updateClaim, type RewardClaimRow } from '../store/rewards-repository.ts';
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
 * Pays a claim from the reward treasury (the engine's transfer command, src/server.ts): once per
 * `ref`, so a claim paid again after a crash is answered with its first payment.
 */
export type PayFromTreasury = (payment: { to: string; amount: bigint; ref: string }) => Promise<{ ok: true; txHash: string } | { ok: false; code: string; message: string }>;
/**
 * With a chain: the payout sent to the wallet there (the operator's side pays it), resolving with
 * the mined transaction's hash; at most once per `key`, the ledger payment's transaction hash.
 */
export type PayOnChain = (payment: { to: string; amount: bigint; key: string }) => Promise<string>;

/**
 * Claims (SPEC.md "Reward claim"). The decision takes the user's claimable rows under row locks
 * and records one claim that owns them, in one transaction; the partial unique index on unfinished
 * claims and the `claim_id IS NULL` filter make concurrent claims of one user dispatch at most one.
 * Paying is asynchronous: the transfer from the reward treasury is an engine command made once per
 * claim (its reference is the claim's id), then the rows turn PAID and the claim `paid`. A crash
 * or a failed command between leaves the claim unfinished; `resumeUnfinished` (each rewards tick,
 * and at a start) sends the same transfer again, which the engine answers with the first payment
 * if it was made: never twice.
 */
export class RewardClaims {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: { db: import('../store/database.ts').Db; clock: Clock; payFromTreasury: PayFromTreasury; payOnChain?: PayOnChain | undefined; events: DomainEvents; logger: FastifyBaseLogger; minPayoutBaseUnits: bigint }) {}

  /**
   * After a treasury deposit: the rows a claim found the treasury short for (NEEDS_INVESTIGATION)
   * are claimable again, as a failed payout's are; their makers claim them as before.
   */
  async treasuryFunded(): Promise<void> {
    const reopened = await reopenUncoveredPayouts(this.deps.db);
    if (reopened > 0) this.deps.logger.info({ rows: reopened }, 'reward payouts the treasury could not cover are claimable again');
  }

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

  /**
   * Pays the claims a crash or a failed command left unfinished (dispatched or in-flight, last
   * touched before `untouchedSinceMs`, so a payment under way is left to itself): at most once each.
   */
  async resumeUnfinished(untouchedSinceMs = Number.POSITIVE_INFINITY): Promise<void> {
    for (const claim of await listUnfinishedClaims(this.deps.db)) if (claim.updated_at.getTime() < untouchedSinceMs) await this.pay(claim.id);
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
    const { db, clock, payFromTreasury, logger } = this.deps;
    const started = await db.transaction().execute(async (tx) => {
      const claim = await lockClaim(tx, claimId);
      if (!claim || (claim.state !== 'dispatched' && claim.state !== 'in-flight')) return undefined;
      await updateClaim(tx, claimId, { state: 'in-flight', updated_at: new Date(clock.nowMs()) });
      return claim;
    });
    if (!started) return;
    this.publish(started, 'in-flight');
    let paid: Awaited<ReturnType<PayFromTreasury>>;
    try {
      paid = await payFromTreasury({ to: started.account, amount: started.amount_base_units, ref: `reward-claim:${started.id}` });
    } catch (error) {
      // Made or not, the next resume sends the same payment again, and it is made once.
      logger.warn({ err: error, claimId }, 'reward claim payment not confirmed; it is sent again at the next rewards tick');
      return;
    }
    if (paid.ok) {
      const txHash = await this.payOnChain(started, paid.txHash);
      if (txHash === undefined) return;
      const now = new Date(clock.nowMs());
      await db.transaction().execute(async (tx) => {
        await finishClaimRows(tx, claimId, { status: 'PAID', txHash, paidAt: now });
        await updateClaim(tx, claimId, { state: 'paid', tx_hash: txHash, updated_at: now });
      });
      this.publish(started, 'paid', { txHash });
      return;
    }
    const now = new Date(clock.nowMs());
    // The treasury cannot cover it: the rows wait for the operator, nothing is paid in part.
    const short = paid.code === 'INSUFFICIENT_BALANCE';
    const message = short ? 'the reward treasury cannot cover this payout' : 'the payout could not be made; the rows can be claimed again';
    await db.transaction().execute(async (tx) => {
      await finishClaimRows(tx, claimId, { status: short ? 'NEEDS_INVESTIGATION' : 'FAILED' });
      await updateClaim(tx, claimId, { state: 'failed', error: message, updated_at: now });
    });
    if (!short) logger.error({ claimId, code: paid.code, reason: paid.message }, 'reward claim payment failed');
    this.publish(started, 'failed', { error: message });
  }

  /**
   * With a chain, the payout the ledger made is sent to the wallet there too (README.md "Claims on
   * a chain"): the claim is paid once it is mined, with that transaction's hash. A send that fails
   * leaves the claim in flight for the next resume (the ledger's payment is made once; the chain's
   * is sent again). Without a chain, the ledger's transaction is the payment. Undefined: not paid yet.
   */
  private async payOnChain(claim: RewardClaimRow, ledgerTxHash: string): Promise<string | undefined> {
    if (!this.deps.payOnChain) return ledgerTxHash;
    try {
      return await this.deps.payOnChain({ to: claim.account, amount: claim.amount_base_units, key: ledgerTxHash });
    } catch (error) {
      this.deps.logger.warn({ err: error, claimId: claim.id }, 'reward claim payout not sent on chain; it is sent again at the next rewards tick');
      return undefined;
    }
  }

  private publish(claim: RewardClaimRow, state: 'dispatched' | 'in-flight' | 'paid' | 'failed', extra: { txHash?: string; error?: string } = {}): void {
    this.deps.events.publish('reward-claim-update', {
      userId: claim.user_id,
      update: { claimId: claim.id, state, amountUsdc: formatUnitsPadded(claim.amount_base_units), ...extra, timestamp: this.deps.clock.nowMs() },
    });
  }
}
