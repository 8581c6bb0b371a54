import type { Db } from '../../store/database.ts';

/** PostgreSQL's deadlock and serialization failures: the transaction did nothing and may run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

export const isRetryable = (error: unknown) => typeof error === 'object' && error !== null && RETRYABLE.has(String((error as { code?: unknown }).code));

/**
 * Runs `work` in a transaction, again (a bounded number of times) when PostgreSQL aborts it as a
 * deadlock victim: callers of the ledger without a transaction of their own get an atomic call
 * that does not fail merely because a concurrent call locked rows in another order.
 */
export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}
