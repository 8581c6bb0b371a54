import type { LockSession } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { writeEngineBatch, type EngineBatchWrites } from '../store/engine-batch-writes.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import type { EngineOrder } from './engine-order.ts';
import type { TradeRow } from '../store/trades-repository.ts';
import type { DomainEventMap, DomainEventName, DomainEvents } from '../events/domain-events.ts';

/**
 * What one group-commit batch changes: collected while the engine applies the batch's commands
 * in memory and in the ledger, written in one statement (store/engine-batch-writes.ts) inside the
 * batch's transaction, and announced only after that transaction has committed.
 */
export class Batch {
  readonly nowMs: number;
  readonly now: Date;
  readonly nowSec: number;
  private readonly inserted = new Map<string, OrderRow>();
  private readonly updated = new Map<string, EngineOrder>();
  /** Orders this batch announces or answers with: their details are read before it commits. */
  readonly ordersToDetail = new Set<EngineOrder>();
  readonly trades: TradeRow[] = [];
  /** Markets whose books changed; their level diffs are published after commit. */
  readonly touchedMarkets = new Set<string>();
  private readonly announcements: (() => void)[] = [];
  /** The batch's reservations and releases, written with its other changes. */
  locks!: LockSession;

  constructor(nowMs: number) {
    this.nowMs = nowMs;
    this.now = new Date(nowMs);
    this.nowSec = Math.floor(nowMs / 1000);
  }

  /** A new order: inserted with whatever state it has when the batch commits. */
  addOrder(row: OrderRow): void {
    this.inserted.set(row.id, row);
  }

  /** The hashes of the orders this batch inserted. */
  newOrderHashes(): string[] {
    return [...this.inserted.values()].map((row) => row.hash);
  }

  /** An existing order whose fills or status changed in this batch. */
  orderChanged(row: EngineOrder): void {
    row.updated_at = this.now;
    if (!this.inserted.has(row.id)) this.updated.set(row.id, row);
  }

  /** The order as this batch left it, when the batch inserted or changed it (the store still shows the state before). */
  changedOrder(orderId: string): EngineOrder | undefined {
    return this.inserted.get(orderId) ?? this.updated.get(orderId);
  }

  /** The batch announces or answers with this order: it needs the order whole. */
  needsDetails(order: EngineOrder): void {
    this.ordersToDetail.add(order);
  }

  addTrade(row: TradeRow): void {
    this.trades.push(row);
  }

  /** Queues an event, built now (so it shows the state of this moment), sent after commit. */
  announce<K extends DomainEventName>(events: DomainEvents, name: K, payload: DomainEventMap[K]): void {
    this.announcements.push(() => events.publish(name, payload));
  }

  /** Runs after commit, in order, once every event of the commands is queued. */
  afterCommit(action: () => void): void {
    this.announcements.push(action);
  }

  /** Writes the batch's reservations, orders and trades, in one statement. */
  async write(tx: Db): Promise<void> {
    await writeEngineBatch(tx, this.takeWrites());
  }

  /** The batch's reservations, orders and trades, as one statement writes them (the journal records them so). */
  takeWrites(): EngineBatchWrites {
    return {
      lockChanges: this.locks.takeChanges(),
      newOrders: [...this.inserted.values()],
      changedOrders: [...this.updated.values()].map((r) => ({ id: r.id, matchedBaseUnits: r.matched_base_units, status: r.status, updatedAt: this.now })),
      trades: this.trades,
    };
  }

  publish(): void {
    for (const announce of this.announcements) announce();
  }
}
