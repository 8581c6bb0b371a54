import { sql } from 'kysely';
import type { Db } from './database.ts';
import { leaseCheck } from './engine-leadership-repository.ts';
import { prepared } from './prepared-statements.ts';

/** A record of the engine's journal as stored (src/engine/journal/record-codec.ts has its text). */
export interface StoredRecord {
  seq: bigint;
  atMs: number;
  hash: string;
  text: string;
}

/** The SQLSTATE of an append whose lease token no longer holds the engine lease (pmx_require). */
export const LEASE_LOST = 'PX001';

/**
 * Appends records in one statement. With a lease token it checks the engine lease of that token as
 * its first part (share-locking the lease row, so a takeover waits for it) and writes nothing when
 * the lease passed to another node: false then, true once written. With `notify`, the followers
 * listening on `pmx_journal` hear of the last sequence when it commits (PostgreSQL).
 */
export async function appendRecords(db: Db, records: StoredRecord[], { leaseToken, notify = false }: { leaseToken?: bigint; notify?: boolean } = {}): Promise<boolean> {
  const parts = [sql`appended AS (
    INSERT INTO engine_journal (seq, at, hash, record)
    SELECT * FROM unnest(${records.map((r) => r.seq.toString())}::bigint[], ${records.map((r) => new Date(r.atMs).toISOString())}::timestamptz[],
                         ${records.map((r) => r.hash)}::text[], ${records.map((r) => r.text)}::text[])
    RETURNING 1)`];
  const checks = [sql`pmx_require((SELECT count(*) FROM appended) = ${records.length}, 'P0001', 'the journal append wrote fewer records than it was given')`];
  if (leaseToken !== undefined) {
    parts.unshift(sql`fence AS (${leaseCheck(leaseToken)})`);
    checks.unshift(sql`pmx_require(EXISTS (SELECT 1 FROM fence), ${LEASE_LOST}, 'the engine lease passed to another node')`);
  }
  if (notify) checks.push(sql`pg_notify('pmx_journal', ${records.at(-1)!.seq.toString()})`);
  try {
    await prepared(sql`WITH ${sql.join(parts)} SELECT ${sql.join(checks)}`).execute(db);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === LEASE_LOST) return false;
    throw error;
  }
}

/** Records after `seq`, in order, at most `limit`. */
export async function readRecordsAfter(db: Db, seq: bigint, limit: number): Promise<StoredRecord[]> {
  const rows = await db.selectFrom('engine_journal').select(['seq', 'at', 'hash', 'record']).where('seq', '>', seq).orderBy('seq').limit(limit).execute();
  return rows.map((row) => ({ seq: BigInt(row.seq), atMs: row.at.getTime(), hash: row.hash, text: row.record }));
}

/** The last record's position, hash and time; null for an empty journal. */
export async function readJournalHead(db: Db): Promise<{ seq: bigint; hash: string; atMs: number } | null> {
  const row = await db.selectFrom('engine_journal').select(['seq', 'hash', 'at']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? { seq: BigInt(row.seq), hash: row.hash, atMs: row.at.getTime() } : null;
}

/** Deletes the records at or below `seq`. */
export async function pruneRecords(db: Db, seq: bigint): Promise<void> {
  await db.deleteFrom('engine_journal').where('seq', '<=', seq).execute();
}

/** A snapshot's header: the state after record `seq`, whose chain hash is `hash`. */
export interface SnapshotHead {
  seq: bigint;
  hash: string;
  stateHash: string;
  parts: number;
}

export async function writeSnapshot(db: Db, head: SnapshotHead, parts: string[], atMs: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // A snapshot stands for a record of the journal: never for a state whose record is not there (an append that failed).
    if (head.seq > 0n) {
      const record = await tx.selectFrom('engine_journal').select('hash').where('seq', '=', head.seq).executeTakeFirst();
      if (record?.hash !== head.hash) throw new Error(`engine snapshot ${head.seq}: the journal ${record ? 'holds another record' : 'holds no record'} at that position`);
    }
    await tx.insertInto('engine_snapshots').values({ seq: head.seq, hash: head.hash, state_hash: head.stateHash, parts: parts.length, created_at: new Date(atMs) }).execute();
    for (const [part, data] of parts.entries()) await tx.insertInto('engine_snapshot_parts').values({ seq: head.seq, part, data }).execute();
  });
}

/** The snapshots kept, newest first. */
export async function listSnapshots(db: Db): Promise<SnapshotHead[]> {
  const rows = await db.selectFrom('engine_snapshots').select(['seq', 'hash', 'state_hash', 'parts']).orderBy('seq', 'desc').execute();
  return rows.map((row) => ({ seq: BigInt(row.seq), hash: row.hash, stateHash: row.state_hash, parts: row.parts }));
}

/** A snapshot's text, part by part. */
export async function readSnapshotParts(db: Db, seq: bigint): Promise<string[]> {
  const rows = await db.selectFrom('engine_snapshot_parts').select(['part', 'data']).where('seq', '=', seq).orderBy('part').execute();
  return rows.map((row) => row.data);
}

export async function deleteSnapshots(db: Db, seqs: bigint[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.deleteFrom('engine_snapshots').where('seq', 'in', seqs).execute();
}
