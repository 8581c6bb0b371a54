import type { Db } from '../store/database.ts';
import { auditLedger, expectedOrderLocks, type AuditReport } from '../settlement/index.ts';
import { addBondLocks } from '../oracle/bond-locks.ts';

/**
 * The ledger audit with what open orders and oracle bonds must keep locked, read in one
 * read-only snapshot: a live node seals settlement blocks and moves locks between the audit's
 * statements, and reading them at different moments would report a sealed block without its
 * transactions, or a lock without its order, as a broken invariant.
 */
export function auditExchange(db: Db): Promise<AuditReport> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only')
    .execute(async (tx) => auditLedger(tx, await addBondLocks(tx, await expectedOrderLocks(tx))));
}
