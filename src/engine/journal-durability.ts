import type { UnprojectedLocks } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { encodeEngineBatch } from '../store/engine-batch-codec.ts';
import type { EngineBatchWrites } from '../store/engine-batch-writes.ts';
import type { Journal } from './journal.ts';
import { projectJournal, projectPending, projectRecords } from './journal-projection.ts';
import { PendingProjection, tableOrders, type StoredOrders } from './pending-projection.ts';

/** Most commands waiting in the journal for the tables (README.md "The journal"): past it the next batch projects first. */
const MAX_UNPROJECTED_COMMANDS = 1_000;
/** Commands waiting for the tables that start a projection beside the queue at the next batch, however young. */
const PROJECT_BESIDE_COMMANDS = 500;
/** Longest a journal record waits for the tables when nothing asks for them sooner. */
const PROJECTION_DELAY_MS = 50;
/**
 * Most commands the journal file holds before a projection in the queue empties it: projections
 * beside the queue leave the file as it is, since the batches meanwhile append to it.
 */
const MAX_JOURNALED_COMMANDS = 20_000;
/**
 * A batch this large commits straight into the tables when nothing waits in the journal: its
 * statement's fixed costs are spread thin already, and journaling it only added the record's
 * encoding and sync (batches of 50 orders per request: 7% fewer orders/s through the journal).
 */
const DIRECT_COMMIT_COMMANDS = 200;

/**
 * How the engine reads the tables through what the journal holds beyond them (the tables alone
 * without a journal): the hashes and stored orders of its records, and their changes of balance
 * rows' `locked`.
 */
export interface TablesThroughJournal extends UnprojectedLocks {
  hasHash(hash: string): boolean;
  orderHashes(): Iterable<string>;
  orders(db: Db): StoredOrders;
}

export const TABLES_ALONE: TablesThroughJournal = {
  hasHash: () => false,
  orderHashes: () => [],
  orders: tableOrders,
  locked: () => 0n,
  settled: async () => {},
};

/** Records on their way into the tables beside the queue: `done` settles when they are in, or failed to be. */
interface Projecting {
  records: PendingProjection;
  done: Promise<void>;
  /** Set once its statement failed: the engine reads through the records still, and the queue projects them again. */
  failure?: { error: unknown };
}

/**
 * The engine's journal and the tables behind it (README.md "The journal"): appends a batch's
 * record, keeps what the tables lack, which the engine reads through, and decides when the tables
 * take it. A projection runs either in the engine's queue (`project`: when a reader, a batch
 * that moves balances in SQL or a bound needs the tables up to the journal), or beside it,
 * started between two batches (`batchStarts`, `batchEnded`) while the batches after it go on
 * appending.
 */
export class JournalDurability implements TablesThroughJournal {
  /** Records not on their way into the tables yet. */
  private pending = new PendingProjection();
  /** Records on their way into the tables beside the queue: at most one projection at a time. */
  private projecting: Projecting | undefined;
  /** A reader's request that the tables catch up, shared by the readers that wait meanwhile. */
  private request: Promise<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The oldest pending record waited its delay: the next batch boundary projects beside the queue. */
  private due = false;
  private inBatch = false;
  /** A projection runs in the queue (`project`): none starts beside it meanwhile, since it empties the journal file at its end. */
  private inQueue = false;
  /** Commands in the journal file since it was last emptied. */
  private journaled = 0;

  constructor(
    private readonly db: Db,
    private readonly journal: Journal,
    private readonly requestProjection: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
    /** How long the oldest record waits for the tables when nothing asks for them sooner. */
    private readonly projectionDelayMs = PROJECTION_DELAY_MS,
  ) {}

  /** At start: the records a stopped or killed engine left go into the tables before the books load. */
  async recover(): Promise<void> {
    await projectJournal(this.db, this.journal, this.pending);
    this.journaled = 0;
  }

  /** Commands answered from the journal and not in the tables yet. */
  get lagCommands(): number {
    return this.pending.commands + (this.projecting?.records.commands ?? 0);
  }

  /** Whether a batch of order commands must first bring the tables up to the journal (too much waits). */
  get full(): boolean {
    return this.pending.commands >= MAX_UNPROJECTED_COMMANDS || this.journaled >= MAX_JOURNALED_COMMANDS || this.projecting?.failure !== undefined;
  }

  /** Whether a batch of this many commands commits straight into the tables. */
  commitsDirectly(commands: number): boolean {
    return this.pending.isEmpty && !this.projecting && commands >= DIRECT_COMMIT_COMMANDS;
  }

  /** A batch starts in the queue: the records due for the tables start on their way there first. */
  batchStarts(): void {
    this.inBatch = true;
    if (this.due || this.pending.commands >= PROJECT_BESIDE_COMMANDS) this.projectBeside();
  }

  /** A batch ended: a projection that fell due meanwhile starts now, the queue being between batches. */
  batchEnded(): void {
    this.inBatch = false;
    if (this.due) this.projectBeside();
  }

  /** Appends a batch's changes as the next record; resolves once it is durable. */
  async append(writes: EngineBatchWrites, commands: number): Promise<void> {
    const seq = this.pending.lastSeq + 1n;
    await this.journal.append({ seq, record: encodeEngineBatch(writes) });
    this.pending.add(seq, writes, commands);
    this.journaled += commands;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.due = true;
      if (!this.inBatch) this.projectBeside();
    }, this.projectionDelayMs);
  }

  /**
   * Brings the tables up to the journal, in the engine's queue: the projection beside it first
   * (again if it failed), then every record since, then empties the journal file, which nothing
   * appends to meanwhile.
   */
  async project(): Promise<void> {
    this.clearTimer();
    this.inQueue = true;
    try {
      const projecting = this.projecting;
      if (projecting) {
        await projecting.done;
        if (projecting.failure) await projectRecords(this.db, projecting.records);
        this.projecting = undefined;
      }
      await projectPending(this.db, this.journal, this.pending);
      this.journaled = 0;
    } finally {
      this.inQueue = false;
    }
  }

  /** Resolves once the tables hold every record appended before the call. */
  async projected(): Promise<void> {
    if (this.pending.isEmpty && !this.projecting) return;
    this.request ??= this.requestProjection().finally(() => {
      this.request = undefined;
    });
    await this.request;
  }

  /**
   * Resolves once no projection is on its way: what a batch awaits before it reads balance rows,
   * whose `locked` the records add to (`locked`) and so must not count both in the table and in
   * the records. Fails when the projection failed: the batch fails, and the rebuild after it
   * projects again.
   */
  async settled(): Promise<void> {
    const projecting = this.projecting;
    if (!projecting) return;
    await projecting.done;
    if (projecting.failure) throw new Error('the projection of the engine journal failed', { cause: projecting.failure.error });
  }

  /** The change of a balance row's `locked` the tables lack, once no projection is on its way (`settled`). */
  locked(key: { account: string; asset: string }): bigint {
    return this.pending.unprojectedLocked(key);
  }

  /** Whether an order the tables may lack carries this hash. */
  hasHash(hash: string): boolean {
    return this.pending.hasHash(hash) || (this.projecting?.records.hasHash(hash) ?? false);
  }

  /** The hashes of the orders the tables may lack. */
  *orderHashes(): Iterable<string> {
    if (this.projecting) yield* this.projecting.records.orderHashes();
    yield* this.pending.orderHashes();
  }

  /** The stored orders as the journal leaves them, whether or not a projection on its way reached the tables. */
  orders(db: Db): StoredOrders {
    const tables = tableOrders(db);
    return this.pending.over(this.projecting ? this.projecting.records.over(tables) : tables);
  }

  /** The engine stopped: no more timed projections, and the journal closes. */
  async close(): Promise<void> {
    this.clearTimer();
    await this.projecting?.done;
    await this.journal.close();
  }

  /**
   * Starts the pending records on their way into the tables, beside the queue: called only between
   * two batches, so no batch is reading the tables meanwhile. The journal file keeps them (a
   * batch may be appending): a projection in the queue empties it, and a restart skips records at
   * or below the tables' sequence.
   */
  private projectBeside(): void {
    if (this.projecting || this.inQueue || this.pending.isEmpty) return;
    this.clearTimer();
    const records = this.pending;
    this.pending = new PendingProjection();
    this.pending.lastSeq = records.lastSeq;
    const projecting: Projecting = { records, done: Promise.resolve() };
    projecting.done = projectRecords(this.db, records).then(
      () => {
        if (this.projecting === projecting) this.projecting = undefined;
        // Records that fell due meanwhile go next, unless a batch runs (it starts them when it ends).
        if (this.due && !this.inBatch) this.projectBeside();
      },
      (error: unknown) => {
        // Kept, so the engine reads through them still and the next batch projects them again (full).
        projecting.failure = { error };
        this.onError(error);
      },
    );
    this.projecting = projecting;
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
  }
}
