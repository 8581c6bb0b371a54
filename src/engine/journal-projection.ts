import type { Db } from '../store/database.ts';
import { decodeEngineBatch } from '../store/engine-batch-codec.ts';
import { projectEngineWrites, readProjectedSeq } from '../store/engine-projection-repository.ts';
import type { Journal } from './journal.ts';
import { PendingProjection } from './pending-projection.ts';

/**
 * Writes every journal record the tables lack, merged, in one statement that also moves the
 * tables' journal sequence, then empties the journal: whenever the process dies, a record is in
 * the tables exactly once.
 */
export async function projectPending(db: Db, journal: Journal, pending: PendingProjection): Promise<void> {
  if (pending.isEmpty) return;
  await projectEngineWrites(db, pending.writes(), pending.lastSeq);
  pending.clear();
  await journal.clear();
}

/**
 * Brings the tables up to the journal a stopped or killed engine left: what a start does before it
 * loads the books, and `pmx audit` before it audits. `pending` ends empty, its sequence the last
 * projected record's, where the next record follows.
 */
export async function projectJournal(db: Db, journal: Journal, pending = new PendingProjection()): Promise<void> {
  await journal.open();
  pending.clear();
  pending.lastSeq = await readProjectedSeq(db);
  for (const { seq, record } of await journal.records()) {
    if (seq > pending.lastSeq) pending.add(seq, decodeEngineBatch(record), 0);
  }
  // Emptying the journal also drops the part of a record whose append never finished.
  if (pending.isEmpty) await journal.clear();
  else await projectPending(db, journal, pending);
}
