import type { Db } from './database.ts';
import { writeEngineBatch, type EngineBatchWrites, type ProjectedSeqs } from './engine-batch-writes.ts';

/** The sequence of the last engine journal record whose changes are in the tables. */
export async function readProjectedSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('engine_projection').select('seq').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.seq;
}

/**
 * Writes the changes of the journal's records `first` to `last` and moves the projected sequence
 * to `last`, in one statement: a record is projected exactly once, whenever the process dies, and
 * records the tables hold already are refused whole (a `locked` change applied twice would
 * reserve money twice).
 */
export async function projectEngineWrites(db: Db, writes: EngineBatchWrites, seqs: ProjectedSeqs): Promise<void> {
  await writeEngineBatch(db, writes, { projectedSeqs: seqs });
}
