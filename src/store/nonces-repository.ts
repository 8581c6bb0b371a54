import type { Db } from './database.ts';

/** Stores a fresh sign-in nonce, first dropping the expired ones so the table stays small. */
export async function insertNonce(db: Db, nonce: string, now: Date, expiresAt: Date): Promise<void> {
  await db.deleteFrom('auth_nonces').where('expires_at', '<=', now).execute();
  await db.insertInto('auth_nonces').values({ nonce, expires_at: expiresAt }).execute();
}

/**
 * Marks a nonce used if it is known, unused and unexpired, in one statement so two concurrent
 * logins with the same nonce cannot both succeed. Returns whether this call consumed it.
 */
export async function consumeNonce(db: Db, nonce: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('auth_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('nonce')
    .executeTakeFirst();
  return row !== undefined;
}
