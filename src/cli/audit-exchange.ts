import type { Db } from '../store/database.ts';
import { auditLedger, expectedOrderLocks, type AuditReport, type AuditViolation } from '../settlement/index.ts';
import { addBondLocks } from '../oracle/bond-locks.ts';
import { auditOrders, type OrderAuditReport, type OrderAuditViolation } from '../engine/order-audit.ts';

export interface ExchangeAuditReport {
  ok: boolean;
  violations: Array<AuditViolation | OrderAuditViolation>;
  counts: AuditReport['counts'] & OrderAuditReport['counts'];
}

/**
 * The ledger audit with what open orders and oracle bonds must keep locked, and the audit of
 * orders against their trades and of trades against the ledger, read in one read-only snapshot:
 * a live node seals settlement blocks and moves locks between the audit's statements, and
 * reading them at different moments would report a sealed block without its transactions, or a
 * lock without its order, as a broken invariant.
 */
export function auditExchange(db: Db): Promise<ExchangeAuditReport> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (tx) => {
    const ledger = await auditLedger(tx, await addBondLocks(tx, await expectedOrderLocks(tx)));
    const orders = await auditOrders(tx);
    const violations = [...ledger.violations, ...orders.violations];
    return { ok: violations.length === 0, violations, counts: { ...ledger.counts, ...orders.counts } };
  });
}
