import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import { leaseCheck } from './engine-leadership-repository.ts';
import { lockChangesPart, type LockChange } from './ledger-balances-repository.ts';
import { orderFillsUpdate, ordersInsert, type OrderFillUpdate, type OrderRow } from './orders-repository.ts';
import { tradesInsert, type TradeRow } from './trades-repository.ts';

/** What an engine batch writes when it ends (src/engine/batch.ts). */
export interface EngineBatchWrites {
  /** The batch's reservations and releases, one signed change per balance row. */
  lockChanges: LockChange[];
  /** Orders the batch accepted, as the batch left them. */
  newOrders: OrderRow[];
  /** Orders accepted before the batch whose fills or status it changed. */
  changedOrders: OrderFillUpdate[];
  trades: TradeRow[];
}

/** The SQLSTATE of a batch statement whose lease token no longer holds the engine lease (pmx_require). */
const LEASE_LOST = 'PX001';

/** The journal records a projection writes, by sequence. */
export interface ProjectedSeqs {
  first: bigint;
  last: bigint;
}

/**
 * Writes a batch's changes in one statement, each table's part a data-modifying WITH query: a
 * batch used to spend a statement per table (balances, new orders, changed orders, trades), each
 * a round trip on PostgreSQL and a parse and plan on both stores. The parts write different rows
 * (changed orders are never the batch's new ones), so seeing one snapshot changes nothing.
 *
 * The statement checks itself (`pmx_require`, migration 0021), so it writes everything or nothing
 * even outside a transaction: every lock change must find its balance row, and with `leaseToken`
 * the statement checks the engine lease of that token as its first part (share-locking its row)
 * and writes nothing when the lease passed to another node (the fence, src/cluster/leadership.ts,
 * without a transaction around it). Returns false in that case, true once written. With
 * `projectedSeqs` (a projection of the journal's records `first` to `last`) it also moves the
 * tables' journal sequence to `last` in the same commit, and writes nothing if the sequence is at
 * `first` or beyond (those records are in the tables already).
 */
export async function writeEngineBatch(db: Db, writes: EngineBatchWrites, { leaseToken, projectedSeqs }: { leaseToken?: bigint; projectedSeqs?: ProjectedSeqs } = {}): Promise<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  const checks: RawBuilder<unknown>[] = [];
  if (leaseToken !== undefined) {
    parts.push(sql`fence AS (${leaseCheck(leaseToken)})`);
    checks.push(sql`pmx_require(EXISTS (SELECT 1 FROM fence), ${LEASE_LOST}, 'the engine lease passed to another node')`);
  }
  if (projectedSeqs) {
    const { first, last } = projectedSeqs;
    parts.push(sql`projected AS (UPDATE engine_projection SET seq = ${last} WHERE id = 1 AND seq < ${first} RETURNING 1)`);
    checks.push(sql`pmx_require(EXISTS (SELECT 1 FROM projected), 'P0001', ${`engine journal record ${first} is in the tables already`})`);
  }
  if (writes.lockChanges.length > 0) {
    const { part, check } = lockChangesPart(writes.lockChanges);
    parts.push(part);
    checks.push(check);
  }
  if (writes.newOrders.length > 0) parts.push(sql`new_orders AS (${ordersInsert(writes.newOrders)})`);
  if (writes.changedOrders.length > 0) parts.push(sql`changed_orders AS (${orderFillsUpdate(writes.changedOrders)})`);
  if (writes.trades.length > 0) parts.push(sql`new_trades AS (${tradesInsert(writes.trades)})`);
  // A lease alone is no write; a projected sequence alone still moves.
  if (parts.length === 0 || (parts.length === 1 && leaseToken !== undefined)) return true;
  try {
    await sql`WITH ${sql.join(parts)} SELECT ${checks.length > 0 ? sql.join(checks) : sql`1`}`.execute(db);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === LEASE_LOST) return false;
    throw error;
  }
}
