import type { FastifyBaseLogger } from 'fastify';
import { PayoutRefusedError } from '../chain/wallet-funding.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { FEE_ACCOUNT } from '../settlement/accounts.ts';
import { hasChainPayout, listOraclePayoutsUnpaidOnChain, recordChainPayout, type LedgerPayout } from '../store/chain-payouts-repository.ts';
import type { Db } from '../store/database.ts';
import { retryUntilDone } from './retry-until-done.ts';

/** How the chain pays: a reward from the operator's side (chain/wallet-funding.ts `walletPayer`), a bond out of the loser's wallet (`bondPayer`). */
export interface OraclePayers {
  reward(payment: { to: string; amount: bigint; key: string }): Promise<string>;
  bond(payment: { from: string; to: string | 'fees'; amount: bigint; key: string }): Promise<string>;
}

/** Payouts read per catch-up query; the next query reads on after the last of them. */
const CATCH_UP_PAGE = 200;

/**
 * Makes on chain the oracle's payouts the ledger made (EXTENSIONS.md sections 11 and 14):
 * - a reward from the reward treasury, paid as reward claims are, from the operator's side
 *   (minted on the embedded chain, the operator's own balance elsewhere);
 * - a bond lost in a dispute, half to the side that was right and half to the fee account: the
 *   operator relays the loser's wallet's `payBond` to the winner's wallet and to the exchange's
 *   fee receiver. A wallet whose owner turned operator trading off refuses: that is logged as an
 *   error, and `pmx audit` names the wallets.
 * Each payout is made once its ledger transaction is durable (`oracle-payout`), retried until
 * mined, then recorded in `chain_payouts`; at start, every payout in the tables without a record
 * is made. Run by the engine's node only (it holds the operator's key), one payout at a time. The
 * payers sign each payment and record it before sending it (chain/once-payments.ts), so a crash
 * after a transfer is mined and before its row here is written finds it mined at the next start
 * and records it, without paying twice.
 */
export class OraclePayoutsOnChain {
  private queue: Promise<void> = Promise.resolve();
  private readonly pending = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly deps: { db: Db; payers: OraclePayers; events: DomainEvents; now: () => Date; logger: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>; catchUpPage?: number }) {}

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.deps.events.subscribe('oracle-payout', (payout) => this.enqueue(payout));
    this.queue = this.queue.then(() => this.catchUp()).catch((error) => this.deps.logger.warn({ err: error }, 'reading the oracle payouts not made on chain failed; they are made at the next start'));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Resolves once every payout queued so far was made or given up (a test's wait). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(payout: LedgerPayout): void {
    if (this.pending.has(payout.ledgerTxHash)) return;
    this.pending.add(payout.ledgerTxHash);
    this.queue = this.queue.then(() => this.payUntilRecorded(payout)).finally(() => this.pending.delete(payout.ledgerTxHash));
  }

  /** The transfer is sent at most once per run: a failed record is retried alone. One the chain refused gets no record. */
  private async payUntilRecorded(payout: LedgerPayout): Promise<void> {
    const { db, logger, now } = this.deps;
    const context = { ledgerTxHash: payout.ledgerTxHash, kind: payout.kind, from: payout.from, to: payout.to, amount: payout.amount.toString() };
    let chainTxHash: string | undefined;
    await retryUntilDone(async () => {
      if (chainTxHash === undefined) {
        if (await hasChainPayout(db, payout.ledgerTxHash)) return;
        try {
          chainTxHash = await this.pay(payout);
        } catch (error) {
          if (!(error instanceof PayoutRefusedError)) throw error;
          logger.error({ ...context, reason: error.message }, 'an oracle payout was refused on chain; the ledger made it, the chain did not (pmx audit names the wallets)');
          return;
        }
      }
      await recordChainPayout(db, { ...payout, chainTxHash, paidAt: now() });
      logger.info({ ...context, txHash: chainTxHash }, 'oracle payout made on chain');
    }, {
      stopped: () => this.stopped,
      failed: (error, retryInMs) => logger.warn({ err: error, ...context, retryInMs }, 'making an oracle payout on chain failed; retrying'),
    });
  }

  private pay(payout: LedgerPayout): Promise<string> {
    const { payers } = this.deps;
    // Keyed by the ledger's transaction: a payout mined before a crash kept it from being recorded is not made again.
    const key = payout.ledgerTxHash;
    if (payout.kind === 'ORACLE_REWARD') return payers.reward({ to: payout.to, amount: payout.amount, key });
    return payers.bond({ from: payout.from, to: payout.to === FEE_ACCOUNT ? 'fees' : payout.to, amount: payout.amount, key });
  }

  /**
   * Every payout without a record, oldest first, one page after another. The pages follow the
   * ledger's sequence rather than reading the unpaid ones again, so a page of payouts that stay
   * unpaid (refused, or being paid by an announcement meanwhile) does not end the catch-up early.
   */
  private async catchUp(): Promise<void> {
    let afterSeq = -1n;
    while (!this.stopped) {
      const page = await listOraclePayoutsUnpaidOnChain(this.deps.db, this.deps.catchUpPage ?? CATCH_UP_PAGE, afterSeq);
      if (page.length === 0) return;
      afterSeq = page.at(-1)!.seq;
      for (const { seq: _seq, ...payout } of page) {
        if (this.stopped) return;
        if (this.pending.has(payout.ledgerTxHash)) continue;
        this.pending.add(payout.ledgerTxHash);
        // A refused payout stays without a record: the next start tries it again.
        await this.payUntilRecorded(payout).finally(() => this.pending.delete(payout.ledgerTxHash));
      }
    }
  }
}
