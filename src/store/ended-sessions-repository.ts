import { sql } from 'kysely';
import type { Db } from './database.ts';
import { prepared } from './prepared-statements.ts';

/** Records an ended session (idempotent), first dropping rows whose tokens have expired anyway. */
export async function insertEndedSession(db: Db, sessionId: string, expiresAt: Date, now: Date): Promise<void> {
  await db.deleteFrom('ended_sessions').where('expires_at', '<=', now).execute();
  await db.insertInto('ended_sessions').values({ session_id: sessionId, expires_at: expiresAt }).onConflict((oc) => oc.column('session_id').doNothing()).execute();
}

/** Which of these sessions were ended, in one read. */
export async function endedSessionsAmong(db: Db, sessionIds: string[]): Promise<Set<string>> {
  const { rows } = await prepared(sql<{ session_id: string }>`SELECT session_id FROM ended_sessions WHERE session_id = ANY(${sessionIds}::text[]::uuid[])`).execute(db);
  return new Set(rows.map((row) => row.session_id));
}

/** The ended sessions whose tokens have not expired yet: what a starting node must refuse. */
export async function listEndedSessions(db: Db, now: Date): Promise<{ sessionId: string; expiresAt: Date }[]> {
  const rows = await db.selectFrom('ended_sessions').select(['session_id', 'expires_at']).where('expires_at', '>', now).execute();
  return rows.map((r) => ({ sessionId: r.session_id, expiresAt: r.expires_at }));
}
