import { sql, type RawBuilder } from 'kysely';
import { columnArrays, type ColumnTypes } from './column-arrays.ts';
import type { Db } from './database.ts';

/**
 * Maintained balance totals of the settlement ledger. Each function is one statement; concurrent
 * callers are kept from overdrawing by conditional updates under row locks, and by the table's
 * CHECK (locked >= 0 AND balance >= locked) as the last line.
 */
export interface BalanceKey {
  account: string;
  asset: string;
}

export interface StoredBalance extends BalanceKey {
  balance: bigint;
  locked: bigint;
}

export interface BalanceChange extends BalanceKey {
  balance: bigint;
  locked: bigint;
}

const toStored = (r: { account: string; asset: string; balance: string; locked: string }): StoredBalance => ({
  account: r.account,
  asset: r.asset,
  balance: BigInt(r.balance),
  locked: BigInt(r.locked),
});

/** locked += amount when the available balance covers it; false (and nothing changed) when not. */
export async function lockAvailable(db: Db, key: BalanceKey, amount: bigint): Promise<boolean> {
  const result = await sql`
    UPDATE ledger_balances SET locked = locked + ${amount.toString()}::numeric
    WHERE account = ${key.account} AND asset = ${key.asset} AND balance - locked >= ${amount.toString()}::numeric`.execute(db);
  return result.numAffectedRows === 1n;
}

/** locked −= amount when at least that much is locked; false (and nothing changed) when not. */
export async function unlock(db: Db, key: BalanceKey, amount: bigint): Promise<boolean> {
  const result = await sql`
    UPDATE ledger_balances SET locked = locked - ${amount.toString()}::numeric
    WHERE account = ${key.account} AND asset = ${key.asset} AND locked >= ${amount.toString()}::numeric`.execute(db);
  return result.numAffectedRows === 1n;
}

export async function findBalance(db: Db, key: BalanceKey): Promise<StoredBalance | undefined> {
  const row = await db.selectFrom('ledger_balances').selectAll().where('account', '=', key.account).where('asset', '=', key.asset).executeTakeFirst();
  return row && toStored(row);
}

/**
 * Locks the existing rows of `keys` in the given order (callers sort keys, so two callers never
 * wait on each other crosswise) and returns them.
 */
export async function lockBalances(db: Db, keys: BalanceKey[]): Promise<StoredBalance[]> {
  const { rows } = await sql<{ account: string; asset: string; balance: string; locked: string }>`
    SELECT b.account, b.asset, b.balance::text AS balance, b.locked::text AS locked
    FROM unnest(${keys.map((k) => k.account)}::text[], ${keys.map((k) => k.asset)}::text[]) WITH ORDINALITY AS k(account, asset, ord)
    JOIN ledger_balances b ON b.account = k.account AND b.asset = k.asset
    ORDER BY k.ord
    FOR UPDATE OF b`.execute(db);
  return rows.map(toStored);
}

/**
 * Adds signed changes to balances and locks, creating rows as needed, as WITH queries of a larger
 * statement (ledger-journal-repository.ts `writePostings`) and the check for its final SELECT.
 * The existing rows are locked in key order (`changesLockedInKeyOrder`) and updated; the others
 * are inserted with their change as their value, so the CHECK judges the row's final amounts
 * (PostgreSQL checks an INSERT's proposed row even when ON CONFLICT turns it into an update: a row
 * created empty first, then updated, was one more statement). A row another writer created since
 * the statement's snapshot takes the change as an update. A change that would overdraw violates
 * the CHECK and fails the statement: callers check what users may spend first.
 */
export function balanceChangesParts(changes: BalanceChange[]): { parts: RawBuilder<unknown>[]; check: RawBuilder<unknown> } {
  const expected = changes.length;
  return {
    parts: [
      changesLockedInKeyOrder('balance', changes, { account: 'text', asset: 'text', balance: 'numeric', locked: 'numeric' }),
      sql`balances_updated AS (
        UPDATE ledger_balances b SET balance = b.balance + c.balance, locked = b.locked + c.locked
        FROM balance_changes c JOIN balance_rows h ON h.account = c.account AND h.asset = c.asset
        WHERE b.account = c.account AND b.asset = c.asset
        RETURNING 1)`,
      sql`balances_created AS (
        INSERT INTO ledger_balances (account, asset, balance, locked)
        SELECT c.account, c.asset, c.balance, c.locked FROM balance_changes c
        WHERE NOT EXISTS (SELECT 1 FROM balance_rows h WHERE h.account = c.account AND h.asset = c.asset)
        ORDER BY c.ord
        ON CONFLICT (account, asset) DO UPDATE SET balance = ledger_balances.balance + EXCLUDED.balance, locked = ledger_balances.locked + EXCLUDED.locked
        RETURNING 1)`,
    ],
    check: sql`pmx_require((SELECT count(*) FROM balances_updated) + (SELECT count(*) FROM balances_created) = ${expected}, 'P0001', 'balance update touched ' || ((SELECT count(*) FROM balances_updated) + (SELECT count(*) FROM balances_created)) || ' of ' || ${expected} || ' rows')`,
  };
}

/** Every non-empty balance of an account. */
export async function listAccountBalances(db: Db, account: string): Promise<StoredBalance[]> {
  const rows = await db.selectFrom('ledger_balances').selectAll().where('account', '=', account).where('balance', '>', '0').orderBy('asset').execute();
  return rows.map(toStored);
}

/** A signed change of one balance row's `locked`. */
export interface LockChange {
  account: string;
  asset: string;
  locked: bigint;
}

/**
 * Adds signed changes to the `locked` of existing rows in one statement (reservations never create
 * a row: what has no row has nothing to reserve). Every row must exist; the CHECK guards the rest.
 */
export async function applyLockChanges(db: Db, changes: LockChange[]): Promise<void> {
  if (changes.length === 0) return;
  const { part, check } = lockChangesPart(changes);
  await sql`WITH ${part} SELECT ${check}`.execute(db);
}

/**
 * The order in which every writer of several balance rows locks them (by account, then asset), so
 * that two writers at once, such as a settlement round beside the engine's queue and an order
 * batch, queue on a row instead of deadlocking.
 */
export function compareBalanceKeys(a: BalanceKey, b: BalanceKey): number {
  return a.account < b.account ? -1 : a.account > b.account ? 1 : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0;
}

/**
 * Balance changes as the WITH query `<name>_changes`, in key order (`compareBalanceKeys`) and
 * numbered `ord`, and `<name>_rows`: the balance rows they name that exist, locked in that order.
 * Every statement that changes several balance rows locks them so, whatever order its caller
 * gave them in.
 */
function changesLockedInKeyOrder<Change extends BalanceKey>(name: 'balance' | 'lock', changes: Change[], types: ColumnTypes<Change>): RawBuilder<unknown> {
  const { columns, arrays } = columnArrays([...changes].sort(compareBalanceKeys), types);
  const changesCte = sql.raw(`${name}_changes`);
  return sql`${changesCte} AS (SELECT * FROM unnest(${arrays}) WITH ORDINALITY AS c(${columns}, ord)),
    ${sql.raw(`${name}_rows`)} AS (
      SELECT b.account, b.asset FROM ledger_balances b JOIN ${changesCte} c ON c.account = b.account AND c.asset = b.asset
      ORDER BY c.ord FOR UPDATE OF b)`;
}

/**
 * The UPDATE of `applyLockChanges` as the WITH query `locks`, its rows locked in key order, and
 * the check (`pmx_require`, migration 0021) that fails the statement unless it touched a row per
 * change: a missing row is a bookkeeping mistake. For a statement that writes more
 * (engine-batch-writes.ts), the check goes in its final SELECT.
 */
export function lockChangesPart(changes: LockChange[]): { part: RawBuilder<unknown>; check: RawBuilder<unknown> } {
  const expected = changes.length;
  return {
    part: sql`${changesLockedInKeyOrder('lock', changes, { account: 'text', asset: 'text', locked: 'numeric' })},
    locks AS (
      UPDATE ledger_balances b SET locked = b.locked + c.locked
      FROM lock_changes c JOIN lock_rows h ON h.account = c.account AND h.asset = c.asset
      WHERE b.account = c.account AND b.asset = c.asset
      RETURNING 1)`,
    check: sql`pmx_require((SELECT count(*) FROM locks) = ${expected}, 'P0001', 'lock update touched ' || (SELECT count(*) FROM locks) || ' of ' || ${expected} || ' rows')`,
  };
}
