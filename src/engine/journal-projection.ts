import type { Db } from '../store/database.ts';
import { decodeEngineBatch } from '../store/engine-batch-codec.ts';
import { projectEngineWrites, readProjectedSeq } from '../store/engine-projection-repository.ts';
import type { Journal } from './journal.ts';
import { PendingProjection } from './pending-projection.ts';

/**
 * Writes records into the tables, merged, in one statement that also moves the tables' journal
 * sequence to the last of them, and refuses them all if the tables hold the first already.
 */
export function projectRecords(db: Db, records: PendingProjection): Promise<void> {
  return projectEngineWrites(db, records.writes(), { first: records.firstSeq, last: records.lastSeq });
}

/**
 * Writes every pending record into the tables, then empties `pending` and the journal file: whenever
 * the process dies, a record is in the tables exactly once. The file is emptied even with nothing
 * pending, since it may still hold records the tables already have (and a torn last line).
 */
export async function projectPending(db: Db, journal: Journal, pending: PendingProjection): Promise<void> {
  if (!pending.isEmpty) await projectRecords(db, pending);
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
  await projectPending(db, journal, pending);
}
