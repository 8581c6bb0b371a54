import type { Db } from './database.ts';

/** The sequence of the last engine journal record whose changes are in the tables. */
export async function readProjectedSeq(db: Db): Promise<bigint> {
  const row = await db.selectFrom('engine_projection').select('seq').where('id', '=', 1).executeTakeFirstOrThrow();
  return BigInt(row.seq);
}
