import type { FastifyBaseLogger } from 'fastify';
import type { DomainEvents } from '../events/domain-events.ts';
import { hasChainPayout, listOracleRewardsUnpaidOnChain, recordChainPayout, type LedgerPayout } from '../store/chain-payouts-repository.ts';
import type { Db } from '../store/database.ts';
import { retryUntilDone } from './retry-until-done.ts';

/** The operator's side pays a wallet on chain, resolving with the mined transfer's hash (chain/wallet-funding.ts `walletPayer`). */
export type PayWallet = (payment: { to: string; amount: bigint }) => Promise<string>;

/** Rewards read per catch-up query; the next query reads on from the ones paid. */
const CATCH_UP_PAGE = 200;

/**
 * Pays on chain the oracle rewards the ledger paid from the reward treasury (EXTENSIONS.md sections
 * 11 and 14), as reward claims are: the treasury is the operator's side (minted on the embedded
 * chain, the operator's own balance elsewhere). Each reward is paid once its ledger transaction is
 * durable (`oracle-reward-paid`), retried until mined, then recorded in `chain_payouts`; at start,
 * every reward in the tables without a record is paid. Run by the engine's node only (it holds the
 * operator's key), one payment at a time. A crash after a transfer is mined and before its record
 * is written pays it again at the next start, the same window as a claim's (src/rewards/README.md
 * "Claims on a chain"); `pmx audit` names the wallet that then holds more than its ledger balance.
 */
export class OracleRewardsOnChain {
  private queue: Promise<void> = Promise.resolve();
  private readonly pending = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly deps: { db: Db; pay: PayWallet; events: DomainEvents; now: () => Date; logger: Pick<FastifyBaseLogger, 'warn' | 'info'> }) {}

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.deps.events.subscribe('oracle-reward-paid', (payout) => this.enqueue(payout));
    this.queue = this.queue.then(() => this.catchUp()).catch((error) => this.deps.logger.warn({ err: error }, 'reading the oracle rewards unpaid on chain failed; they are paid at the next start'));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Resolves once every payment queued so far was made or given up (a test's wait). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(payout: LedgerPayout): void {
    if (this.pending.has(payout.ledgerTxHash)) return;
    this.pending.add(payout.ledgerTxHash);
    this.queue = this.queue.then(() => this.payUntilRecorded(payout)).finally(() => this.pending.delete(payout.ledgerTxHash));
  }

  /** The transfer is sent at most once per run: a failed record is retried alone. */
  private async payUntilRecorded(payout: LedgerPayout): Promise<void> {
    const { db, pay, logger, now } = this.deps;
    let chainTxHash: string | undefined;
    await retryUntilDone(async () => {
      if (chainTxHash === undefined) {
        if (await hasChainPayout(db, payout.ledgerTxHash)) return;
        chainTxHash = await pay({ to: payout.account, amount: payout.amount });
      }
      await recordChainPayout(db, { ...payout, chainTxHash, paidAt: now() });
      logger.info({ ledgerTxHash: payout.ledgerTxHash, wallet: payout.account, txHash: chainTxHash }, 'oracle reward paid on chain');
    }, {
      stopped: () => this.stopped,
      failed: (error, retryInMs) => logger.warn({ err: error, ledgerTxHash: payout.ledgerTxHash, retryInMs }, 'paying an oracle reward on chain failed; retrying'),
    });
  }

  private async catchUp(): Promise<void> {
    while (!this.stopped) {
      const unpaid = (await listOracleRewardsUnpaidOnChain(this.deps.db, CATCH_UP_PAGE)).filter((payout) => !this.pending.has(payout.ledgerTxHash));
      if (unpaid.length === 0) return;
      for (const payout of unpaid) {
        if (this.stopped) return;
        this.pending.add(payout.ledgerTxHash);
        await this.payUntilRecorded(payout).finally(() => this.pending.delete(payout.ledgerTxHash));
      }
    }
  }
}
