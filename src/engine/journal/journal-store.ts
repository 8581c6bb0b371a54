import type { Db } from '../../store/database.ts';
import {
  appendRecords, deleteSnapshots, listSnapshots, pruneRecords, readJournalHead, readRecordsAfter, readSnapshotParts, writeSnapshot,
  type SnapshotHead, type StoredRecord,
} from '../../store/engine-journal-repository.ts';
import { readProjectedSeq } from '../../store/engine-projection-repository.ts';
import { writeProjection } from '../../store/engine-projection-writes.ts';
import type { MergedChanges } from '../projection/merged-changes.ts';
import { FencedError } from '../queue-full-error.ts';

export type { SnapshotHead, StoredRecord };

/**
 * Where the engine keeps its journal, its snapshots and its projection (README.md): the narrow
 * interface the engine needs of a store, so that the simulation test can put faults between the
 * engine and a real one.
 */
export interface EngineStore {
  /** Appends records in order; resolves once they are durable. FencedError when the lease moved. */
  append(records: StoredRecord[]): Promise<void>;
  readAfter(seq: bigint, limit: number): Promise<StoredRecord[]>;
  head(): Promise<{ seq: bigint; hash: string; atMs: number } | null>;
  prune(seq: bigint): Promise<void>;
  writeSnapshot(head: SnapshotHead, parts: string[], atMs: number): Promise<void>;
  listSnapshots(): Promise<SnapshotHead[]>;
  readSnapshot(seq: bigint): Promise<string[]>;
  deleteSnapshots(seqs: bigint[]): Promise<void>;
  /** Writes merged records into the tables and moves the projected sequence, exactly once. */
  project(merged: MergedChanges): Promise<void>;
  projectedSeq(): Promise<bigint>;
}

/** How appends check that this node still holds the engine (LeaseLeadership); none on a store of one process. */
export interface AppendFence {
  /** The lease token the append must find (FencedError when this node no longer holds it), and where to say what it found. */
  statementFence(): { token: bigint; checked(held: boolean): void };
}

/** The engine's store in the database: the journal and snapshot tables, and the tables it projects into. */
export function databaseEngineStore(db: Db, options: { fence?: AppendFence; notify: boolean }): EngineStore {
  const { fence, notify } = options;
  return {
    async append(records) {
      const lease = fence?.statementFence();
      const held = await appendRecords(db, records, { notify, ...(lease ? { leaseToken: lease.token } : {}) });
      lease?.checked(held);
      if (!held) throw new FencedError();
    },
    readAfter: (seq, limit) => readRecordsAfter(db, seq, limit),
    head: () => readJournalHead(db),
    prune: (seq) => pruneRecords(db, seq),
    writeSnapshot: (head, parts, atMs) => writeSnapshot(db, head, parts, atMs),
    listSnapshots: () => listSnapshots(db),
    readSnapshot: (seq) => readSnapshotParts(db, seq),
    deleteSnapshots: (seqs) => deleteSnapshots(db, seqs),
    project: (merged) => writeProjection(db, merged, { notify }),
    projectedSeq: () => readProjectedSeq(db),
  };
}
