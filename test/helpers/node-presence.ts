import { sql } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { lockNodePresence, PRESENCE_LOCK_CLASS } from '../../src/store/engine-leadership-repository.ts';
import { holdNodePresence } from '../../src/store/node-presence.ts';

/**
 * Holds node `id`'s presence lock as its live process would (src/store/node-presence.ts), for a
 * lease a test writes in that node's name: on a session of its own on PostgreSQL (`url`), on the
 * one session of PGlite. The returned function lets it go, as the process's death does.
 */
export async function holdPresenceOf(store: Pick<Store, 'db'> & { url?: string | undefined }, id: string): Promise<() => Promise<void>> {
  if (store.url) {
    const presence = await holdNodePresence(store.url, id, () => {});
    return () => presence.close();
  }
  await lockNodePresence(store.db, id);
  return async () => {
    await sql`SELECT pg_advisory_unlock(${sql.lit(PRESENCE_LOCK_CLASS)}, hashtext(${id}) & 2147483647)`.execute(store.db);
  };
}
