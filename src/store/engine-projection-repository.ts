import type { Db } from './database.ts';
import { writeEngineBatch, type EngineBatchWrites } from './engine-batch-writes.ts';

/** The sequence of the last engine journal record whose changes are in the tables. */
export async function readProjectedSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('engine_projection').select('seq').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.seq;
}

/**
 * Writes the changes of the journal's records up to `seq` and moves the projected sequence to it,
 * in one statement: a record is projected exactly once, whenever the process dies.
 */
export async function projectEngineWrites(db: Db, writes: EngineBatchWrites, seq: bigint): Promise<void> {
  await writeEngineBatch(db, writes, { projectedSeq: seq });
}
