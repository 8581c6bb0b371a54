import { InsufficientBalanceError, LedgerStateError } from '../../settlement/types.ts';

/** One (account, asset) balance: `balance` held, of which `locked` reserved (available = balance − locked). */
export interface BalanceRow {
  balance: bigint;
  locked: bigint;
}

/** A change of one balance row: what a ledger leg or a reservation does to it. */
export interface BalanceChange {
  account: string;
  asset: string;
  balanceDelta: bigint;
  lockedDelta: bigint;
}

/** Told of every row a command is about to change, with its value before (record-effects.ts `balanceTouched`). */
export type TouchListener = (account: string, asset: string, before: Readonly<BalanceRow>) => void;

const ZERO: Readonly<BalanceRow> = Object.freeze({ balance: 0n, locked: 0n });

/**
 * Every balance of the exchange, in memory: the engine is their only writer (DESIGN.md "engine/"),
 * so what it decides on never changes under it, and the `ledger_balances` table is a projection
 * of these rows. Amounts are base units. A row that returns to zero is dropped.
 *
 * Two kinds of refusal: `InsufficientBalanceError` when a user's available balance does not cover
 * what a command asks (data for the caller), and `LedgerStateError` when a change would break the
 * ledger's rules (locked above balance, a release of what was not locked): a bug above this class,
 * never user input, and the command fails without changing anything.
 */
export class Balances {
  private readonly accounts = new Map<string, Map<string, BalanceRow>>();
  private listener: TouchListener | undefined;

  /** Who hears of the rows the next commands change (one record at a time), or nobody. */
  listen(listener: TouchListener | undefined): void {
    this.listener = listener;
  }

  get(account: string, asset: string): Readonly<BalanceRow> {
    return this.accounts.get(account)?.get(asset) ?? ZERO;
  }

  available(account: string, asset: string): bigint {
    const row = this.get(account, asset);
    return row.balance - row.locked;
  }

  /** The account's rows, by asset (none: an empty map). */
  of(account: string): ReadonlyMap<string, Readonly<BalanceRow>> {
    return this.accounts.get(account) ?? new Map();
  }

  /** available −= amount, locked += amount. */
  reserve(account: string, asset: string, amount: bigint): void {
    positive(amount, 'a reservation');
    const available = this.available(account, asset);
    if (available < amount) throw new InsufficientBalanceError(account, asset, available, amount);
    this.set(account, asset, 0n, amount);
  }

  /** locked −= amount. */
  release(account: string, asset: string, amount: bigint): void {
    positive(amount, 'a release');
    const locked = this.get(account, asset).locked;
    if (locked < amount) throw new LedgerStateError(`release of ${amount} ${asset} for ${account} exceeds the ${locked} locked`);
    this.set(account, asset, 0n, -amount);
  }

  /**
   * Applies the changes of one ledger transaction, all or none: each resulting row must keep
   * 0 ≤ locked ≤ balance. `guarded` changes spend available balance (a user's split, transfer or
   * merge): a debit beyond what is available is an InsufficientBalanceError, not a bug.
   */
  post(changes: readonly BalanceChange[], { guarded = false } = {}): void {
    const net = netOf(changes);
    for (const change of net) {
      const row = this.get(change.account, change.asset);
      const balance = row.balance + change.balanceDelta;
      const locked = row.locked + change.lockedDelta;
      if (guarded && change.balanceDelta < 0n && change.lockedDelta === 0n && balance < row.locked) {
        throw new InsufficientBalanceError(change.account, change.asset, row.balance - row.locked, -change.balanceDelta);
      }
      if (locked < 0n || balance < locked) throw new LedgerStateError(`${change.account} ${change.asset}: balance ${balance}, locked ${locked} after the change`);
    }
    for (const change of net) this.set(change.account, change.asset, change.balanceDelta, change.lockedDelta);
  }

  /** Every non-zero row, in no particular order (snapshots sort them). */
  *rows(): IterableIterator<{ account: string; asset: string; row: Readonly<BalanceRow> }> {
    for (const [account, assets] of this.accounts) for (const [asset, row] of assets) yield { account, asset, row };
  }

  /** Sets a row as a snapshot or the store holds it (no listener: nothing changed). */
  restore(account: string, asset: string, row: BalanceRow): void {
    if (row.balance === 0n && row.locked === 0n) return;
    this.assetsOf(account).set(asset, { balance: row.balance, locked: row.locked });
  }

  get size(): number {
    let n = 0;
    for (const assets of this.accounts.values()) n += assets.size;
    return n;
  }

  private assetsOf(account: string): Map<string, BalanceRow> {
    const known = this.accounts.get(account);
    if (known) return known;
    const assets = new Map<string, BalanceRow>();
    this.accounts.set(account, assets);
    return assets;
  }

  private set(account: string, asset: string, balanceDelta: bigint, lockedDelta: bigint): void {
    const assets = this.assetsOf(account);
    const row = assets.get(asset);
    this.listener?.(account, asset, row ?? ZERO);
    const next = { balance: (row?.balance ?? 0n) + balanceDelta, locked: (row?.locked ?? 0n) + lockedDelta };
    if (next.balance === 0n && next.locked === 0n) {
      assets.delete(asset);
      if (assets.size === 0) this.accounts.delete(account);
    } else if (row) {
      row.balance = next.balance;
      row.locked = next.locked;
    } else {
      assets.set(asset, next);
    }
  }
}

/** One change per row: a transaction's legs on the same row add up before the rules are checked. */
function netOf(changes: readonly BalanceChange[]): BalanceChange[] {
  const net = new Map<string, BalanceChange>();
  for (const c of changes) {
    const key = `${c.account}\u0000${c.asset}`;
    const sum = net.get(key);
    if (sum) {
      sum.balanceDelta += c.balanceDelta;
      sum.lockedDelta += c.lockedDelta;
    } else {
      net.set(key, { ...c });
    }
  }
  return [...net.values()].filter((c) => c.balanceDelta !== 0n || c.lockedDelta !== 0n);
}

function positive(amount: bigint, what: string): void {
  if (amount <= 0n) throw new LedgerStateError(`${what} must be positive, got ${amount}`);
}

