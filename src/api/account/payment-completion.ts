import type { FastifyBaseLogger } from 'fastify';
import { minedCredit, recordedWithdrawal, settleWithdrawal, WITHDRAWAL_PAYMENT_PREFIX, type ChainOperator, type PaymentIntents } from '../../chain/index.ts';
import type { MatchingEngine } from '../../engine/engine.ts';
import { withdrawalRef } from '../../engine/state/balance-commands.ts';
import { COLLATERAL, userAccount } from '../../settlement/index.ts';
import type { Db } from '../../store/database.ts';
import { creditedAccountOf } from '../../store/ledger-journal-repository.ts';
import { findUserByWallet } from '../../store/users-repository.ts';
import { creditLedger, CREDIT_PAYMENT_PREFIXES, type CreditKind } from './credit-on-chain.ts';
import { logWalletRefusal, withdrawalUndo } from './withdraw-on-chain.ts';

/** How far back a look reads the records (by the machine's clock, as they are stamped): at leadership, then each minute. */
const AT_LEADERSHIP_MS = 7 * 24 * 60 * 60 * 1000;
const EACH_MINUTE_MS = 24 * 60 * 60 * 1000;

export interface PaymentCompletionDeps {
  operator: ChainOperator;
  intents: PaymentIntents & { keysStartingWith(prefixes: readonly string[], signedSince?: Date): Promise<string[]> };
  engine: Pick<MatchingEngine, 'credit' | 'transfer' | 'reads'>;
  db: Db;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/**
 * Completes the moves of money cut between the ledger and the chain, from the records of payments
 * (chain_payment_intents), where each transaction is recorded before it is sent:
 * - a credit (credit-on-chain.ts) goes on chain first: one mined whose ledger side was never made
 *   (the server stopped between them, the engine lost its lead) is credited, with its key, to the
 *   user of the wallet it paid (the engine credits once per key, so a caller completing it too
 *   changes nothing); one never mined is left, its caller told to send it again;
 * - a withdrawal (withdraw-on-chain.ts) goes into the ledger first: one whose transaction was never
 *   seen mined (the chain stopped answering, the server stopped before sending) is sent until
 *   mined, or, refused by the wallet with its nonce unspent, undone in the ledger
 *   (src/chain/wallet-withdrawal.ts `settleWithdrawal`).
 * Run by the leader: at leadership over the last week's records, then each minute over the last
 * day's; a record found complete is not read again until the next leadership.
 */
export class PaymentCompletion {
  private looking: Promise<void> | undefined;
  private stopped = false;
  /** Records found complete since this node took the lead. */
  private readonly complete = new Set<string>();

  constructor(private readonly deps: PaymentCompletionDeps) {}

  /** Starts the look at leadership without waiting for it: a chain slow to answer does not hold the leader's start. */
  async start(): Promise<void> {
    this.stopped = false;
    this.complete.clear();
    void this.lookOnce(AT_LEADERSHIP_MS);
  }

  tick(): Promise<void> {
    return this.lookOnce(EACH_MINUTE_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.looking;
  }

  /** One look at a time: a tick while one runs waits for it rather than starting another. */
  private lookOnce(backMs: number): Promise<void> {
    this.looking ??= this.look(new Date(Date.now() - backMs))
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'reading the records of payments failed; the next look tries again'))
      .finally(() => { this.looking = undefined; });
    return this.looking;
  }

  private async look(signedSince: Date): Promise<void> {
    const { intents, logger } = this.deps;
    for (const key of await intents.keysStartingWith([...CREDIT_PAYMENT_PREFIXES, WITHDRAWAL_PAYMENT_PREFIX], signedSince)) {
      if (this.stopped) return;
      if (this.complete.has(key)) continue;
      const completion = key.startsWith(WITHDRAWAL_PAYMENT_PREFIX) ? this.withdrawal(key) : this.credit(key);
      await completion.then((done) => done && this.complete.add(key))
        .catch((error: unknown) => logger.warn({ err: error, key }, 'completing a payment failed; the next look tries again'));
    }
  }

  /** True once the credit is in the ledger, or can never be (its transaction will not be mined, or paid no user). */
  private async credit(key: string): Promise<boolean> {
    const { operator, intents, engine, db, logger } = this.deps;
    const separator = key.indexOf(':');
    const idempotencyKey = key.slice(separator + 1);
    if (engine.reads.creditMade(idempotencyKey)) return true;
    const paid = await minedCredit(operator, intents, key);
    if (!paid) return false;
    const details = { key, wallet: paid.wallet, amountBaseUnits: String(paid.amountBaseUnits), txHash: paid.txHash };
    const user = await findUserByWallet(db, paid.wallet);
    if (!user) {
      logger.error(details, 'a credit was mined on chain to a wallet no user has: nothing to credit in the ledger');
      return true;
    }
    const outcome = await creditLedger(engine, key.slice(0, separator) as CreditKind, user, paid.amountBaseUnits, idempotencyKey);
    if (!outcome.ok) logger.error({ ...details, reason: outcome.message }, 'the ledger refused to complete a credit made on chain');
    else if (!outcome.replayed) logger.warn(details, "a credit made on chain and not in the ledger (cut between its two sides) was completed: the ledger's side is made");
    return outcome.ok;
  }

  /**
   * True once the withdrawal's transaction is mined, or the wallet refused it (undone in the ledger
   * when nothing left the wallet); false while the tables lack its ledger transaction.
   */
  private async withdrawal(key: string): Promise<boolean> {
    const { operator, intents, engine, db, logger } = this.deps;
    const w = await recordedWithdrawal(intents, key);
    if (!w) return true;
    const account = userAccount(w.wallet);
    const details = { key, wallet: account, to: w.to, nonce: String(w.nonce), amountBaseUnits: String(w.amountBaseUnits) };
    // Recorded only once the ledger holds it (relayWithdrawal): a record without it is never sent.
    const journaled = engine.reads.onceTransaction(withdrawalRef(account, w.nonce));
    if (journaled === undefined) {
      logger.error(details, 'a withdrawal is recorded for the chain but not in the ledger: it is not sent');
      return true;
    }
    // Where the ledger moved it, as journaled: `to` read again could name a user who signed up since.
    const receivedBy = await creditedAccountOf(db, journaled, COLLATERAL);
    if (receivedBy === undefined) return false;
    const undo = withdrawalUndo(engine, { account, nonce: w.nonce, amountBaseUnits: w.amountBaseUnits, receivedBy });
    const settled = await operator.exclusive((chain) => settleWithdrawal(chain, intents, w, undo));
    logWalletRefusal(logger, details, settled);
    return true;
  }
}
