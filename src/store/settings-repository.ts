import type { Db } from './database.ts';

/** Returns the stored value of `key`, storing `candidate` first when there is none (race-safe). */
export async function getOrCreateSetting(db: Db, key: string, candidate: () => string): Promise<string> {
  await db.insertInto('settings').values({ key, value: candidate() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

/** The stored value of `key`, or undefined. */
export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` under `key`, replacing any value there. */
export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

/** Deletes `key` (a generated key replaced by a configured one). */
export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', key).execute();
}
