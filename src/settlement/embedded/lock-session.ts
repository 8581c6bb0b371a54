import type { Db } from '../../store/database.ts';
import { applyLockChanges, lockBalances, type BalanceKey, type LockChange, type StoredBalance } from '../../store/ledger-balances-repository.ts';
import { InsufficientBalanceError, LedgerStateError, type HeldBalances, type LockSession, type Movement, type UnprojectedLocks } from '../types.ts';

const keyOf = (k: BalanceKey) => `${k.account}|${k.asset}`;

/** More rows than this and the held balances start again from the store: memory stays bounded. */
const MAX_HELD_ROWS = 100_000;

/**
 * Balance rows kept between lock sessions by their only writer (the engine): a session reads
 * only the rows it lacks, and its flush keeps the rows it holds current.
 */
export class HeldBalanceRows implements HeldBalances {
  readonly rows = new Map<string, StoredBalance>();

  forget(): void {
    this.rows.clear();
  }
}

/**
 * Reservations of many orders in one transaction for the price of two statements at most: the
 * rows that may be reserved from are locked and read once (in a fixed order, so concurrent
 * writers queue rather than deadlock), every reserve is checked in memory against them, and all
 * the changes of `locked` are written together by `flush`, or handed to the caller to write with
 * its own changes (`takeChanges`). Rows held from an earlier session (`HeldBalanceRows`) are not
 * read again, so a batch whose rows are all held reads none.
 * The table's CHECK (locked >= 0, balance >= locked) still guards the write, so a bookkeeping
 * mistake fails the transaction instead of overdrawing.
 */
export class BatchedLockSession implements LockSession {
  private readonly deltas = new Map<string, { key: BalanceKey; locked: bigint }>();

  private constructor(private readonly tx: Db, private readonly rows: Map<string, StoredBalance>) {}

  static async open(tx: Db, keys: BalanceKey[], held?: HeldBalanceRows, unprojected?: UnprojectedLocks): Promise<BatchedLockSession> {
    if (held && held.rows.size > MAX_HELD_ROWS) held.forget();
    const session = new BatchedLockSession(tx, held?.rows ?? new Map());
    const missing = [...new Map(keys.map((k) => [keyOf(k), { account: k.account, asset: k.asset }])).values()].filter((k) => !session.rows.has(keyOf(k)));
    missing.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
    if (missing.length > 0) {
      await unprojected?.settled();
      for (const row of await lockBalances(tx, missing)) session.rows.set(keyOf(row), unprojected ? { ...row, locked: row.locked + unprojected.locked(row) } : row);
    }
    return session;
  }

  reserve(m: Movement): void {
    if (m.amount <= 0n) throw new LedgerStateError(`a reservation must be positive, got ${m.amount}`);
    const key = keyOf(m);
    if (!this.rows.has(key) && !this.deltas.has(key)) {
      // Only keys named when the session opened are read; anything else has nothing to reserve.
      throw new InsufficientBalanceError(m.account, m.asset, 0n, m.amount);
    }
    const available = this.available(key);
    if (available < m.amount) throw new InsufficientBalanceError(m.account, m.asset, available > 0n ? available : 0n, m.amount);
    this.add(m, m.amount);
  }

  release(m: Movement): void {
    if (m.amount <= 0n) throw new LedgerStateError(`a release must be positive, got ${m.amount}`);
    const row = this.rows.get(keyOf(m));
    if (row && row.locked + this.delta(keyOf(m)) < m.amount) {
      throw new LedgerStateError(`release of ${m.amount} ${m.asset} for ${m.account} (${m.ref}) exceeds the ${row.locked + this.delta(keyOf(m))} locked`);
    }
    this.add(m, -m.amount);
  }

  async flush(): Promise<void> {
    await applyLockChanges(this.tx, this.takeChanges());
  }

  takeChanges(): LockChange[] {
    const changes = [...this.deltas.values()].filter((d) => d.locked !== 0n).sort((a, b) => (keyOf(a.key) < keyOf(b.key) ? -1 : 1));
    for (const { key, locked } of changes) {
      const row = this.rows.get(keyOf(key));
      if (row) row.locked += locked;
    }
    this.deltas.clear();
    return changes.map((d) => ({ ...d.key, locked: d.locked }));
  }

  private available(key: string): bigint {
    const row = this.rows.get(key);
    return row ? row.balance - row.locked - this.delta(key) : -this.delta(key);
  }

  private delta(key: string): bigint {
    return this.deltas.get(key)?.locked ?? 0n;
  }

  private add(m: Movement, amount: bigint): void {
    const key = keyOf(m);
    const entry = this.deltas.get(key) ?? { key: { account: m.account, asset: m.asset }, locked: 0n };
    entry.locked += amount;
    this.deltas.set(key, entry);
  }
}
