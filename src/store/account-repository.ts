import type { Db } from './database.ts';
import { findUserById, type User } from './users-repository.ts';
import { isUniqueViolation } from './unique-violation.ts';

/** The editable profile fields of a user; an absent field is left unchanged, null clears it. */
export interface ProfilePatch {
  displayName?: string | null;
  avatarUrl?: string | null;
  anonymous?: boolean;
}

export type ProfileUpdateResult = { ok: true; user: User } | { ok: false; reason: 'display-name-taken' | 'unknown-user' };

/** Applies a profile patch; a display name another user holds (any letter case) is refused. */
export async function updateUserProfile(db: Db, userId: string, patch: ProfilePatch, now: Date): Promise<ProfileUpdateResult> {
  const changes = {
    ...(patch.displayName !== undefined ? { display_name: patch.displayName } : {}),
    ...(patch.avatarUrl !== undefined ? { avatar_url: patch.avatarUrl } : {}),
    ...(patch.anonymous !== undefined ? { anonymous: patch.anonymous } : {}),
  };
  if (Object.keys(changes).length > 0) {
    try {
      await db.updateTable('users').set({ ...changes, updated_at: now }).where('id', '=', userId).execute();
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'display-name-taken' };
      throw error;
    }
  }
  const user = await findUserById(db, userId);
  return user ? { ok: true, user } : { ok: false, reason: 'unknown-user' };
}
