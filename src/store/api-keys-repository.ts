import { sql } from 'kysely';
import { getAddress, type Address } from 'viem';
import type { Db } from './database.ts';
import { prepared } from './prepared-statements.ts';

export interface StoredApiKey {
  apiKey: string;
  userId: string;
  address: Address;
  proxyWallet: Address;
  secretCiphertext: string;
  passphraseHash: string;
}

export interface ApiKeySummary {
  apiKey: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * Inserts a key unless the user already holds `maxActive` unrevoked ones: one transaction that
 * locks the user's row, counts, then inserts, so concurrent creations of one user queue up and
 * the cap holds (issue 38: 80 concurrent creations made 80 keys). Returns whether it inserted.
 */
export async function insertApiKeyWithinCap(db: Db, key: { apiKey: string; userId: string; secretCiphertext: string; passphraseHash: string; createdAt: Date }, maxActive: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('users').select('id').where('id', '=', key.userId).forUpdate().executeTakeFirst();
    if ((await countActiveApiKeys(tx, key.userId)) >= maxActive) return false;
    await tx.insertInto('api_keys').values({
      id: key.apiKey,
      user_id: key.userId,
      secret_ciphertext: key.secretCiphertext,
      passphrase_hash: key.passphraseHash,
      created_at: key.createdAt,
    }).execute();
    return true;
  });
}

/** The unrevoked key with its owner's addresses, or undefined. */
export async function findActiveApiKey(db: Db, apiKey: string): Promise<StoredApiKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.user_id', 'api_keys.secret_ciphertext', 'api_keys.passphrase_hash', 'users.address', 'users.proxy_wallet'])
    .where('api_keys.id', '=', apiKey)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    apiKey: row.id,
    userId: row.user_id,
    address: getAddress(row.address),
    proxyWallet: getAddress(row.proxy_wallet),
    secretCiphertext: row.secret_ciphertext,
    passphraseHash: row.passphrase_hash,
  };
}

/**
 * Which of these keys (UUIDs) are issued and unrevoked, in one read: asked for the requests signed
 * with a key, so one prepared statement whatever their number.
 */
export async function activeApiKeysAmong(db: Db, apiKeys: string[]): Promise<Set<string>> {
  const { rows } = await prepared(sql<{ id: string }>`SELECT id FROM api_keys WHERE id = ANY(${apiKeys}::text[]::uuid[]) AND revoked_at IS NULL`).execute(db);
  return new Set(rows.map((row) => row.id));
}

export async function countActiveApiKeys(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every unrevoked key's stored secret, for re-encryption under a new key (rotation). */
export async function listActiveSecrets(db: Db): Promise<{ apiKey: string; secretCiphertext: string }[]> {
  const rows = await db.selectFrom('api_keys').select(['id', 'secret_ciphertext']).where('revoked_at', 'is', null).execute();
  return rows.map((r) => ({ apiKey: r.id, secretCiphertext: r.secret_ciphertext }));
}

/** Re-encrypts one key's secret (key rotation), unless it was revoked meanwhile. */
export async function updateApiKeySecret(db: Db, apiKey: string, secretCiphertext: string): Promise<void> {
  await db.updateTable('api_keys').set({ secret_ciphertext: secretCiphertext }).where('id', '=', apiKey).where('revoked_at', 'is', null).execute();
}

/** A user's unrevoked keys, oldest first. */
export async function listActiveApiKeys(db: Db, userId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ apiKey: row.id, createdAt: row.created_at, lastUsedAt: row.last_used_at }));
}

/** Revokes one of the user's own unrevoked keys; false when there is no such key. */
export async function revokeApiKey(db: Db, apiKey: string, userId: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', apiKey)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The user a key was issued to, revoked or not; undefined for a key never issued. */
export async function findApiKeyOwner(db: Db, apiKey: string): Promise<string | undefined> {
  const row = await db.selectFrom('api_keys').select('user_id').where('id', '=', apiKey).executeTakeFirst();
  return row?.user_id;
}

export async function touchApiKey(db: Db, apiKey: string, now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', apiKey).execute();
}
