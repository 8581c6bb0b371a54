import type { Db } from '../store/database.ts';
import { encodeEngineBatch } from '../store/engine-batch-codec.ts';
import type { EngineBatchWrites } from '../store/engine-batch-writes.ts';
import type { Journal } from './journal.ts';
import { projectJournal, projectPending } from './journal-projection.ts';
import { PendingProjection } from './pending-projection.ts';

/** Most commands waiting in the journal for the tables (README.md "The journal"): past it the next batch projects first. */
const MAX_UNPROJECTED_COMMANDS = 1_000;
/** Longest a journal record waits for the tables when nothing asks for them sooner. */
const PROJECTION_DELAY_MS = 50;
/**
 * A batch this large commits straight into the tables when nothing waits in the journal: its
 * statement's fixed costs are spread thin already, and journaling it only added the record's
 * encoding and sync (batches of 50 orders per request: 7% fewer orders/s through the journal).
 */
const DIRECT_COMMIT_COMMANDS = 200;

/**
 * The engine's journal and the tables behind it (README.md "The journal"): appends a batch's
 * record, keeps what the tables lack (`pending`, which the engine reads through), and decides
 * when the tables take it. Projections run in the engine's queue: `requestProjection` submits the
 * command that does (MatchingEngine's `project`), and `project` is what that command runs.
 */
export class JournalDurability {
  readonly pending = new PendingProjection();
  /** A reader's request that the tables catch up, shared by the readers that wait meanwhile. */
  private request: Promise<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly journal: Journal,
    private readonly requestProjection: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** At start: the records a stopped or killed engine left go into the tables before the books load. */
  recover(): Promise<void> {
    return projectJournal(this.db, this.journal, this.pending);
  }

  /** Whether a batch of order commands must first bring the tables up to the journal (too much waits). */
  get full(): boolean {
    return this.pending.commands >= MAX_UNPROJECTED_COMMANDS;
  }

  /** Whether a batch of this many commands commits straight into the tables. */
  commitsDirectly(commands: number): boolean {
    return this.pending.isEmpty && commands >= DIRECT_COMMIT_COMMANDS;
  }

  /** Appends a batch's changes as the next record; resolves once it is durable. */
  async append(writes: EngineBatchWrites, commands: number): Promise<void> {
    const seq = this.pending.lastSeq + 1n;
    await this.journal.append({ seq, record: encodeEngineBatch(writes) });
    this.pending.add(seq, writes, commands);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (!this.pending.isEmpty) this.requestProjection().catch(this.onError);
    }, PROJECTION_DELAY_MS);
  }

  /** Writes every record the tables lack into them (journal-projection.ts). */
  async project(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await projectPending(this.db, this.journal, this.pending);
  }

  /** Resolves once the tables hold every record appended before the call. */
  async projected(): Promise<void> {
    if (this.pending.isEmpty) return;
    this.request ??= this.requestProjection().finally(() => {
      this.request = undefined;
    });
    await this.request;
  }

  /** The engine stopped: no more timed projections, and the journal closes. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.journal.close();
  }
}
