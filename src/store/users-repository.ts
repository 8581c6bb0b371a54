import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { ProxyWalletDerivation } from '../core/proxy-wallet.ts';
import type { Db } from './database.ts';

export type { ProxyWalletDerivation } from '../core/proxy-wallet.ts';

export interface User {
  id: string;
  /** Checksummed sign-in address. */
  address: Address;
  /** Checksummed proxy wallet. */
  proxyWallet: Address;
  displayName: string | null;
  avatarUrl: string | null;
  anonymous: boolean;
  createdAt: Date;
}

type UserRow = { id: string; address: string; proxy_wallet: string; display_name: string | null; avatar_url: string | null; anonymous: boolean; created_at: Date };

function toUser(row: UserRow): User {
  return {
    id: row.id,
    address: getAddress(row.address),
    proxyWallet: getAddress(row.proxy_wallet),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    anonymous: row.anonymous,
    createdAt: row.created_at,
  };
}

const COLUMNS = ['id', 'address', 'proxy_wallet', 'display_name', 'avatar_url', 'anonymous', 'created_at'] as const;

/**
 * Returns the user of a sign-in address, creating it on first sight with the proxy wallet
 * `proxyWalletOf` names (kept for good: a user's wallet never changes).
 */
export async function findOrCreateUserByAddress(db: Db, address: string, proxyWalletOf: ProxyWalletDerivation): Promise<User> {
  const owner = getAddress(address.toLowerCase());
  await db
    .insertInto('users')
    .values({ id: randomUUID(), address: owner.toLowerCase(), proxy_wallet: proxyWalletOf(owner).toLowerCase() })
    .onConflict((oc) => oc.column('address').doNothing())
    .execute();
  const row = await db.selectFrom('users').select(COLUMNS).where('address', '=', owner.toLowerCase()).executeTakeFirstOrThrow();
  return toUser(row);
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** Finds a user by sign-in address or proxy wallet, in any letter case. */
export async function findUserByWallet(db: Db, wallet: string): Promise<User | undefined> {
  const lower = wallet.toLowerCase();
  const row = await db.selectFrom('users').select(COLUMNS)
    .where((eb) => eb.or([eb('address', '=', lower), eb('proxy_wallet', '=', lower)]))
    .executeTakeFirst();
  return row && toUser(row);
}

/** The user whose display name is `name`, in any letter case (display names are unique that way). */
export async function findUserByDisplayName(db: Db, name: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(COLUMNS)
    .where(sql<boolean>`lower(display_name) = lower(${name})`)
    .executeTakeFirst();
  return row && toUser(row);
}

/** Which of `addresses` (lowercase) are users' proxy wallets: the chain's indexer asks of the addresses its logs name. */
export async function proxyWalletsAmong(db: Db, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('proxy_wallet').where('proxy_wallet', 'in', [...addresses]).execute();
  return new Set(rows.map((row) => row.proxy_wallet));
}
