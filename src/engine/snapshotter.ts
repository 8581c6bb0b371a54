import type { FastifyBaseLogger } from 'fastify';
import type { EngineStore } from './journal/journal-store.ts';
import type { EngineState } from './state/engine-state.ts';
import { encodeSnapshot } from './state/snapshot-codec.ts';

export interface SnapshotPolicy {
  /** Commands journaled since the last snapshot before the next is due. */
  everyCommands: number;
  /** Time since the last snapshot after which one is due, if any record came meanwhile. */
  everyMs: number;
}

export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = { everyCommands: 200_000, everyMs: 10 * 60_000 };

/**
 * Writes the engine's state beside its journal now and then (README.md "Snapshots") and prunes what
 * no recovery needs any more: a restart loads the newest snapshot the tables have caught up with
 * and replays the records after it, so the journal behind the older of the two newest such
 * snapshots, and every snapshot before that, can go. The state is encoded at once, between two
 * records (on the engine's thread: a pause of about a microsecond per open order), and written
 * once its last record is durable; a record that never becomes durable takes its snapshot with it.
 */
export class Snapshotter {
  private commandsSince = 0;
  private lastMs: number;
  private writing: Promise<void> | undefined;
  private cancelWait: (() => void) | undefined;
  /** Commands journaled since the last snapshot that was written, and when it was: what a restart would replay. */
  private unsnapshotted = 0;
  private writtenMs: number;

  constructor(private readonly options: { store: EngineStore; policy: SnapshotPolicy; logger: Pick<FastifyBaseLogger, 'info' | 'error'>; nowMs(): number }) {
    this.lastMs = options.nowMs();
    this.writtenMs = this.lastMs;
  }

  /** Commands a restart would replay beyond the newest snapshot written, and that snapshot's age. */
  get lag(): { commands: number; ageMs: number } {
    return { commands: this.unsnapshotted, ageMs: this.options.nowMs() - this.writtenMs };
  }

  /**
   * After a record is applied: encodes the state if a snapshot is due. `durable` settles once that
   * record is durable and in the tables, or rejects when it never will be (its append failed): its
   * snapshot then goes with it, and the next one is due at once.
   */
  applied(state: EngineState, commands: number, durable: () => Promise<void>, projectedSeq: () => bigint): void {
    this.commandsSince += commands;
    this.unsnapshotted += commands;
    const { policy, logger } = this.options;
    if (this.writing || (this.commandsSince < policy.everyCommands && this.options.nowMs() - this.lastMs < policy.everyMs)) return;
    this.commandsSince = 0;
    this.lastMs = this.options.nowMs();
    const snapshot = encodeSnapshot(state);
    const head = { seq: state.seq, hash: state.hash, stateHash: snapshot.stateHash, parts: snapshot.chunks.length };
    const covered = this.unsnapshotted;
    const cancelled = new Promise<'cancelled'>((resolve) => {
      this.cancelWait = () => resolve('cancelled');
    });
    const due = durable().then(
      () => 'due' as const,
      (error: unknown) => {
        logger.info({ err: error, seq: head.seq.toString() }, 'engine snapshot dropped: its record did not become durable');
        return 'dropped' as const;
      },
    );
    this.writing = Promise.race([due, cancelled])
      .then(async (outcome) => {
        if (outcome !== 'due') {
          if (outcome === 'dropped') this.commandsSince = policy.everyCommands;
          return;
        }
        await this.options.store.writeSnapshot(head, snapshot.chunks, this.lastMs);
        this.unsnapshotted -= covered;
        this.writtenMs = this.lastMs;
        await this.prune(projectedSeq());
      })
      .catch((error) => {
        this.commandsSince = policy.everyCommands;
        logger.error({ err: error, seq: head.seq.toString() }, 'engine snapshot not written; the next one is due at once');
      })
      .finally(() => {
        this.writing = undefined;
        this.cancelWait = undefined;
      });
  }

  /** The engine stops: a snapshot still waiting for its record to reach the tables is not written (they will not, here). */
  cancel(): void {
    this.cancelWait?.();
  }

  /** Settles once no snapshot is being written. */
  async idle(): Promise<void> {
    await this.writing;
  }

  /**
   * Keeps the two newest snapshots the tables have caught up with (`projectedSeq`) and any newer
   * ones; deletes older snapshots and the records at or below the oldest kept.
   */
  async prune(projectedSeq: bigint): Promise<void> {
    const { store } = this.options;
    const snapshots = await store.listSnapshots();
    const usable = snapshots.filter((s) => s.seq <= projectedSeq);
    if (usable.length < 2) return;
    const oldestKept = usable[1]!.seq;
    await store.deleteSnapshots(snapshots.filter((s) => s.seq < oldestKept).map((s) => s.seq));
    await store.prune(oldestKept);
  }
}
