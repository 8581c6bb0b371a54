import type { FastifyBaseLogger } from 'fastify';
import { minedCredit, type ChainOperator, type PaymentIntents } from '../../chain/index.ts';
import type { MatchingEngine } from '../../engine/engine.ts';
import type { Db } from '../../store/database.ts';
import { findUserByWallet } from '../../store/users-repository.ts';
import { creditLedger, CREDIT_PAYMENT_PREFIXES, type CreditKind } from './credit-on-chain.ts';

/** How far back a periodic look reads the credits' records (by the machine's clock, as they are stamped); the look at leadership reads them all. */
const RECENT_MS = 24 * 60 * 60 * 1000;

export interface CreditCompletionDeps {
  operator: ChainOperator;
  intents: PaymentIntents & { keysStartingWith(prefixes: readonly string[], signedSince?: Date): Promise<string[]> };
  engine: Pick<MatchingEngine, 'credit' | 'reads'>;
  db: Db;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/**
 * Completes credits cut between their two sides (credit-on-chain.ts): the collateral mined into the
 * wallet, and the ledger's credit never made, because the server stopped between them, the engine
 * lost its lead, or the chain answered too late. Each credit's transaction is recorded under its
 * key before it is sent, so the leader reads the records whose key the ledger has not credited,
 * asks the chain what became of each, and makes the ledger's side of those mined, with the same
 * key (the engine credits once per key, so a caller completing it too changes nothing). Those not
 * mined are left: a caller told the chain stopped answering may send them again. The look runs at
 * leadership over every record, then each minute over the last day's.
 */
export class CreditCompletion {
  private looking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: CreditCompletionDeps) {}

  /** Starts the look over every record without waiting for it: a chain slow to answer does not hold the leader's start. */
  async start(): Promise<void> {
    this.stopped = false;
    void this.lookOnce(undefined);
  }

  tick(): Promise<void> {
    return this.lookOnce(new Date(Date.now() - RECENT_MS));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.looking;
  }

  /** One look at a time: a tick while one runs waits for it rather than starting another. */
  private lookOnce(signedSince: Date | undefined): Promise<void> {
    this.looking ??= this.look(signedSince)
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'reading the credits made on chain failed; the next look tries again'))
      .finally(() => { this.looking = undefined; });
    return this.looking;
  }

  private async look(signedSince: Date | undefined): Promise<void> {
    const { intents, engine, logger } = this.deps;
    for (const key of await intents.keysStartingWith(CREDIT_PAYMENT_PREFIXES, signedSince)) {
      if (this.stopped) return;
      const separator = key.indexOf(':');
      const idempotencyKey = key.slice(separator + 1);
      if (engine.reads.creditMade(idempotencyKey)) continue;
      await this.complete(key.slice(0, separator) as CreditKind, idempotencyKey, key)
        .catch((error: unknown) => logger.warn({ err: error, key }, 'completing a credit made on chain failed; the next look tries again'));
    }
  }

  private async complete(kind: CreditKind, idempotencyKey: string, key: string): Promise<void> {
    const { operator, intents, engine, db, logger } = this.deps;
    const paid = await minedCredit(operator, intents, key);
    if (!paid) return;
    const details = { key, wallet: paid.wallet, amountBaseUnits: String(paid.amountBaseUnits), txHash: paid.txHash };
    const user = await findUserByWallet(db, paid.wallet);
    if (!user) {
      logger.error(details, 'a credit was mined on chain to a wallet no user has: nothing to credit in the ledger');
      return;
    }
    const outcome = await creditLedger(engine, kind, user, paid.amountBaseUnits, idempotencyKey);
    if (!outcome.ok) logger.error({ ...details, reason: outcome.message }, 'the ledger refused to complete a credit made on chain');
    else if (!outcome.replayed) logger.warn(details, "a credit made on chain and not in the ledger (cut between its two sides) was completed: the ledger's side is made");
  }
}
