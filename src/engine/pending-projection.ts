import type { Db } from '../store/database.ts';
import type { EngineBatchWrites } from '../store/engine-batch-writes.ts';
import type { LockChange } from '../store/ledger-balances-repository.ts';
import { findOrderById, findOrderByIdempotencyKey, type OrderFillUpdate, type OrderRow } from '../store/orders-repository.ts';
import type { TradeRow } from '../store/trades-repository.ts';

const lockKey = (k: { account: string; asset: string }) => `${k.account}|${k.asset}`;

/** The stored orders a command may look up (one no longer open, an idempotency key), as of the batch's start. */
export interface StoredOrders {
  byId(id: string): Promise<OrderRow | undefined>;
  byIdempotencyKey(userId: string, key: string): Promise<OrderRow | undefined>;
}

/** The stored orders as the tables hold them. */
export function tableOrders(db: Db): StoredOrders {
  return { byId: (id) => findOrderById(db, id), byIdempotencyKey: (userId, key) => findOrderByIdempotencyKey(db, userId, key) };
}

/**
 * The changes of the journal records the tables do not have yet, merged in journal order into
 * what one statement writes (README.md, "The journal"): an order inserted and then filled is
 * inserted filled, an order changed twice is updated once to its last state, the changes of a
 * balance row's `locked` add up. The engine reads through it (`orders`, `hasHash`,
 * `unprojectedLocked`) wherever it would read the tables, so what it decides never depends on
 * how far the projection has come.
 */
export class PendingProjection {
  private readonly newOrders = new Map<string, OrderRow>();
  private readonly fills = new Map<string, OrderFillUpdate>();
  private readonly locks = new Map<string, LockChange>();
  private readonly idempotency = new Map<string, OrderRow>();
  private readonly hashes = new Set<string>();
  private trades: TradeRow[] = [];
  private records = 0;
  /** The sequence of the first record added since the last `clear` (0 with none). */
  firstSeq = 0n;
  /** The sequence of the last record added. */
  lastSeq = 0n;
  /** How many commands the records held. */
  commands = 0;

  get isEmpty(): boolean {
    return this.records === 0;
  }

  add(seq: bigint, writes: EngineBatchWrites, commands: number): void {
    for (const change of writes.lockChanges) {
      const key = lockKey(change);
      const locked = (this.locks.get(key)?.locked ?? 0n) + change.locked;
      this.locks.set(key, { account: change.account, asset: change.asset, locked });
    }
    for (const row of writes.newOrders) {
      // A copy: the engine goes on changing its own row, and each change comes as a fill.
      const copy = { ...row };
      this.newOrders.set(row.id, copy);
      this.hashes.add(row.hash);
      if (row.idempotency_key) this.idempotency.set(`${row.user_id}|${row.idempotency_key}`, copy);
    }
    for (const fill of writes.changedOrders) {
      const inserted = this.newOrders.get(fill.id);
      if (inserted) Object.assign(inserted, filled(fill));
      else this.fills.set(fill.id, fill);
    }
    for (const trade of writes.trades) this.trades.push(trade);
    if (this.records === 0) this.firstSeq = seq;
    this.records++;
    this.lastSeq = seq;
    this.commands += commands;
  }

  /** Whether a waiting order carries this hash. */
  hasHash(hash: string): boolean {
    return this.hashes.has(hash);
  }

  /** The hashes of the waiting orders. */
  orderHashes(): Iterable<string> {
    return this.hashes;
  }

  /** The change of a balance row's `locked` the tables do not have yet. */
  unprojectedLocked(key: { account: string; asset: string }): bigint {
    return this.locks.get(lockKey(key))?.locked ?? 0n;
  }

  /**
   * The stored orders as these records leave them, over `older` (the tables, or older records
   * over them): an order inserted here, else the older one with this records' last change of it.
   * A change is the order's whole new state, so applying it to a row that has it already (read
   * after older records reached the tables) changes nothing.
   */
  over(older: StoredOrders): StoredOrders {
    return {
      byId: async (id) => this.newOrders.get(id) ?? this.withFill(await older.byId(id)),
      byIdempotencyKey: async (userId, key) => this.idempotency.get(`${userId}|${key}`) ?? this.withFill(await older.byIdempotencyKey(userId, key)),
    };
  }

  /** Everything waiting, as one batch of writes. */
  writes(): EngineBatchWrites {
    return {
      lockChanges: [...this.locks.values()].filter((c) => c.locked !== 0n).sort((a, b) => (lockKey(a) < lockKey(b) ? -1 : 1)),
      newOrders: [...this.newOrders.values()],
      changedOrders: [...this.fills.values()],
      trades: this.trades,
    };
  }

  clear(): void {
    this.newOrders.clear();
    this.fills.clear();
    this.locks.clear();
    this.idempotency.clear();
    this.hashes.clear();
    this.trades = [];
    this.records = 0;
    this.firstSeq = 0n;
    this.commands = 0;
  }

  private withFill(row: OrderRow | undefined): OrderRow | undefined {
    const fill = row && this.fills.get(row.id);
    return fill ? { ...row, ...filled(fill) } : row;
  }
}

/** The columns a fill changes, as `orderFillsUpdate` writes them. */
const filled = (fill: OrderFillUpdate): Pick<OrderRow, 'matched_base_units' | 'status' | 'delayed_until' | 'updated_at'> => ({
  matched_base_units: fill.matchedBaseUnits, status: fill.status, delayed_until: null, updated_at: fill.updatedAt,
});
