import { sql } from 'kysely';
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
 * Adds signed changes to balances and locks in one statement, creating rows as needed, in the
 * given order. A change that would overdraw violates the table's CHECK and fails the statement.
 */
export async function applyBalanceChanges(db: Db, changes: BalanceChange[]): Promise<void> {
  if (changes.length === 0) return;
  await sql`
    INSERT INTO ledger_balances (account, asset, balance, locked)
    SELECT c.account, c.asset, c.balance, c.locked
    FROM unnest(${changes.map((c) => c.account)}::text[], ${changes.map((c) => c.asset)}::text[],
                ${changes.map((c) => c.balance.toString())}::numeric[], ${changes.map((c) => c.locked.toString())}::numeric[])
         WITH ORDINALITY AS c(account, asset, balance, locked, ord)
    ORDER BY c.ord
    ON CONFLICT (account, asset) DO UPDATE
      SET balance = ledger_balances.balance + excluded.balance, locked = ledger_balances.locked + excluded.locked`.execute(db);
}

/** Every non-empty balance of an account. */
export async function listAccountBalances(db: Db, account: string): Promise<StoredBalance[]> {
  const rows = await db.selectFrom('ledger_balances').selectAll().where('account', '=', account).where('balance', '>', '0').orderBy('asset').execute();
  return rows.map(toStored);
}
