import { sql, type Expression } from 'kysely';
import type { Db } from './database.ts';

/** The engine lease as another node sees it. */
export interface EngineLease {
  token: bigint;
  holder: string | null;
  url: string | null;
  /** Renewed within the lease time, by the database's clock, and its holder present. */
  live: boolean;
}

const expiredBefore = (leaseMs: number) => sql<Date>`clock_timestamp() - make_interval(secs => ${leaseMs / 1000})`;

/**
 * Node presence: every node holds, on a database session of its own for as long as its process
 * lives (node-presence.ts), the advisory lock (PRESENCE_LOCK_CLASS, a hash of its id). A process
 * killed with `kill -9` loses its sessions, and the database their locks, at once: a lease whose
 * holder holds no presence lock is a dead process's, taken without waiting for it to expire. A
 * live holder (a frozen one, one draining on the same address) keeps its session, so its lease is
 * taken only once it expired, as before; fencing keeps either case safe.
 */
export const PRESENCE_LOCK_CLASS = 0x706d78;
/** Takes the presence lock of node `$1` on the session that runs it (true; false when a session holds it already). */
export const PRESENCE_LOCK_SQL = `SELECT pg_try_advisory_lock(${PRESENCE_LOCK_CLASS}, hashtext($1) & 2147483647) AS locked`;
/** Whether the node whose id is the SQL expression `nodeId` holds its presence lock: its process lives. */
const presenceHeld = (nodeId: Expression<string>) => sql<boolean>`EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND classid = ${sql.lit(PRESENCE_LOCK_CLASS)}::oid AND objid = (hashtext(${nodeId}) & 2147483647)::oid AND objsubid = 2
)`;
const holderPresent = presenceHeld(sql.ref<string>('holder'));

/**
 * Takes the engine lease when nobody holds it, its holder let it expire, or its holder's process is
 * gone (no presence lock): one UPDATE that bumps the fencing token. Nothing else lets a node take
 * a live lease: not the same host name, not the same port (issue 38). A holder in the middle of a write holds
 * the row lock, so the takeover waits for that write and then sees the renewed lease: a write
 * never commits after its term ended. Returns the new token, or undefined when the lease is held.
 */
export async function takeEngineLease(db: Db, node: { id: string; url: string }, leaseMs: number): Promise<bigint | undefined> {
  const row = await db
    .updateTable('engine_leadership')
    .set({ token: sql`token + 1`, holder: node.id, url: node.url, renewed_at: sql`clock_timestamp()` })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('renewed_at', '<', expiredBefore(leaseMs)), eb.not(holderPresent)]))
    .returning('token')
    .executeTakeFirst();
  return row?.token;
}

/**
 * Renews the lease of `token` held by `holder` (the leader's timer): false when the lease has
 * passed to another node. Only the holder's own id renews it.
 */
export async function renewEngineLease(db: Db, token: bigint, holder: string): Promise<boolean> {
  const { rows } = await sql`UPDATE engine_leadership SET renewed_at = clock_timestamp() WHERE id = 1 AND token = ${token} AND holder = ${holder} RETURNING 1`.execute(db);
  return rows.length === 1;
}

/**
 * The fence of the engine's writes, inside the caller's transaction: false when the lease has
 * passed to another node. The row stays share-locked until the commit, so a takeover (an UPDATE of
 * the row) waits for the write and no write commits after its term, while the engine's writes,
 * which only share the lock, never wait for each other (src/cluster/README.md "The lease").
 */
export async function checkEngineLease(db: Db, token: bigint): Promise<boolean> {
  const { rows } = await leaseCheck(token).execute(db);
  return rows.length === 1;
}

/** The check of `checkEngineLease`, for a statement that writes more: one row while `token` holds the lease. */
export const leaseCheck = (token: bigint) => sql`SELECT 1 FROM engine_leadership WHERE id = 1 AND token = ${token} FOR SHARE`;

/** Gives the lease up at once (a clean shutdown), so another node need not wait for it to expire. */
export async function releaseEngineLease(db: Db, token: bigint): Promise<void> {
  await db.updateTable('engine_leadership').set({ holder: null, url: null, renewed_at: sql`'-infinity'::timestamptz` }).where('id', '=', 1).where('token', '=', token).execute();
}

export async function readEngineLease(db: Db, leaseMs: number): Promise<EngineLease> {
  const row = await db
    .selectFrom('engine_leadership')
    .select(['token', 'holder', 'url', sql<boolean>`holder IS NOT NULL AND renewed_at >= ${expiredBefore(leaseMs)} AND ${holderPresent}`.as('live')])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return row;
}

/**
 * The presence locks held now (PRESENCE_LOCK_CLASS), one hash of a node id each: every live node
 * of the database. A hash that was here and is gone is a node whose process ended.
 */
export async function presentNodeHashes(db: Db): Promise<Set<string>> {
  const { rows } = await sql<{ node: string }>`
    SELECT objid::text AS node FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid = ${sql.lit(PRESENCE_LOCK_CLASS)}::oid AND objsubid = 2`.execute(db);
  return new Set(rows.map((row) => row.node));
}

/** Which of `nodeIds` hold their presence lock now (PRESENCE_LOCK_CLASS): the nodes among them whose process lives. */
export async function presentNodesAmong(db: Db, nodeIds: readonly string[]): Promise<string[]> {
  if (nodeIds.length === 0) return [];
  const { rows } = await sql<{ node: string }>`SELECT node FROM unnest(${[...nodeIds]}::text[]) AS node WHERE ${presenceHeld(sql.ref<string>('node'))}`.execute(db);
  const present = new Set(rows.map((row) => row.node));
  return nodeIds.filter((node) => present.has(node));
}

/** Takes node `nodeId`'s presence lock on the session `db` runs on (PGlite's one session; tests): see PRESENCE_LOCK_CLASS. */
export async function lockNodePresence(db: Db, nodeId: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${sql.lit(PRESENCE_LOCK_CLASS)}, hashtext(${nodeId}) & 2147483647) AS locked`.execute(db);
  return rows[0]!.locked;
}
