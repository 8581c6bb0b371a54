import { AUDIT_DETAILS_PER_INVARIANT } from '../settlement/index.ts';
import type { Db } from '../store/database.ts';
import { countOrdersAndTrades, ordersAgainstFills, tradesAgainstLedger, tradesAgainstOrders, volumesAgainstTrades, type Breaches } from '../store/order-audit-repository.ts';

export type OrderInvariant = 'orders-match-fills' | 'trades-match-orders' | 'trades-settled-once' | 'volumes-match-trades';

export interface OrderAuditViolation {
  invariant: OrderInvariant;
  detail: string;
}

export interface OrderAuditReport {
  violations: OrderAuditViolation[];
  counts: { orders: number; trades: number };
}

/**
 * What the engine wrote, checked against itself: the orders and trades tables are what the
 * engine's batches (or the journal's projection of them) made, and the trades are its record of
 * every fill, so each order's matched size and status must follow from its trades, and each
 * trade's ledger settlement from its status.
 * - orders-match-fills: an order's matched size is the sum of its fills, within its size, and its
 *   status fits (EXECUTED exactly when fully matched);
 * - trades-match-orders: a trade's parties are its orders' owners, tokens and sides, and neither
 *   traded at a price worse than its limit;
 * - trades-settled-once: a MINED or CONFIRMED trade has exactly one ledger transaction, with its
 *   txHash; any other has none; no trade settlement exists without its trade. With settlement on
 *   a chain (`onChain`) the txHash is the chain's, and a MATCHED trade a reorg took back keeps
 *   its one ledger transaction;
 * - volumes-match-trades: the markets' kept volumes, all-time and by hour, are their trades' sums.
 * Each invariant names at most AUDIT_DETAILS_PER_INVARIANT rows and counts the rest, as the
 * ledger audit does.
 */
export async function auditOrders(db: Db, { onChain = false }: { onChain?: boolean } = {}): Promise<OrderAuditReport> {
  const violations: OrderAuditViolation[] = [];
  const checks: Array<[OrderInvariant, (db: Db, limit: number) => Promise<Breaches>]> = [
    ['orders-match-fills', ordersAgainstFills],
    ['trades-match-orders', tradesAgainstOrders],
    ['trades-settled-once', (tx, limit) => tradesAgainstLedger(tx, limit, onChain)],
    ['volumes-match-trades', volumesAgainstTrades],
  ];
  for (const [invariant, check] of checks) {
    const { total, rows } = await check(db, AUDIT_DETAILS_PER_INVARIANT);
    for (const row of rows) violations.push({ invariant, detail: `${row.id}: ${row.problem}` });
    if (total > rows.length) violations.push({ invariant, detail: `and ${total - rows.length} more` });
  }
  return { violations, counts: await countOrdersAndTrades(db) };
}
