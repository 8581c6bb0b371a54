import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import { assertAllLockRows, lockChangesUpdate, type LockChange } from './ledger-balances-repository.ts';
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

/**
 * Writes a batch's changes in one statement, each table's part a data-modifying WITH query: a
 * batch used to spend a statement per table (balances, new orders, changed orders, trades), each
 * a round trip on PostgreSQL and a parse and plan on both stores. The parts write different rows
 * (changed orders are never the batch's new ones), so seeing one snapshot changes nothing.
 */
export async function writeEngineBatch(db: Db, writes: EngineBatchWrites): Promise<void> {
  const withLocks = writes.lockChanges.length > 0;
  const parts: RawBuilder<unknown>[] = [];
  // Only the lock update returns its rows: the batch checks that every change found its row.
  if (withLocks) parts.push(sql`locks AS (${lockChangesUpdate(writes.lockChanges)} RETURNING 1)`);
  if (writes.newOrders.length > 0) parts.push(sql`new_orders AS (${ordersInsert(writes.newOrders)})`);
  if (writes.changedOrders.length > 0) parts.push(sql`changed_orders AS (${orderFillsUpdate(writes.changedOrders)})`);
  if (writes.trades.length > 0) parts.push(sql`new_trades AS (${tradesInsert(writes.trades)})`);
  if (parts.length === 0) return;
  const lockRows = withLocks ? sql`(SELECT count(*) FROM locks)` : sql`0`;
  const { rows } = await sql<{ lock_rows: bigint }>`WITH ${sql.join(parts)} SELECT ${lockRows}::int8 AS lock_rows`.execute(db);
  if (withLocks) assertAllLockRows(BigInt(rows[0]!.lock_rows), writes.lockChanges);
}
