import type { FastifyBaseLogger } from 'fastify';
import type { EngineStore } from './journal/journal-store.ts';
import type { UnprojectedRecords } from './projection/unprojected-records.ts';
import { replayRecords } from './recovery.ts';
import { SeqWatch } from './seq-watch.ts';
import type { EngineState } from './state/engine-state.ts';
import type { UnannouncedRecords } from './unannounced-records.ts';

/** How often a follower looks at the journal when no notification came (they can be lost). */
const POLL_MS = 200;
/** The longest pause between attempts of a follower that cannot follow the journal. */
const MAX_RETRY_PAUSE_MS = 5_000;
/** A follower that cannot follow says so again every this many attempts at the longest pause (about a minute). */
const LOG_EVERY = 12;

export interface FollowerOptions {
  store: EngineStore;
  state(): EngineState;
  records: UnprojectedRecords;
  /** The tables' projected sequence as this node last saw it. */
  projected: SeqWatch;
  /** Where the records applied wait until the engine's node is heard announcing them (its node has other nodes). */
  unannounced?: UnannouncedRecords;
  /** The state went wrong part-way through a record (a bug): it is recovered from the store. */
  rebuild(): Promise<void>;
  logger: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

/**
 * A standby's engine follows the journal (README.md "Standbys"): it applies every record as it is
 * appended (told by a notification, or by polling), so a takeover has only the last few records
 * to apply, whatever the size of the books; and it learns how far the tables are, so its readers
 * wait for what they must see there. It keeps the changes of the records the tables lack: the
 * projector takes them if this node takes the engine over.
 */
export class Follower {
  readonly applied = new SeqWatch();
  private timer: NodeJS.Timeout | undefined;
  private catching: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /**
   * Why the journal cannot be followed now, even from the store (a record this build cannot
   * apply, a chain that breaks, a store that does not answer): the node's state is not whole, so
   * it serves none of it and takes no engine over, and it tries again after a pause that doubles.
   */
  private failure: unknown;
  private attempts = 0;
  private pauseMs = POLL_MS;
  private retryAt = 0;

  constructor(private readonly options: FollowerOptions) {}

  /** Follows the journal; `failure`: the state could not be recovered, so the first attempt starts over from the store. */
  start(failure?: unknown): void {
    this.stopped = false;
    this.failure = undefined;
    this.pauseMs = POLL_MS;
    if (failure !== undefined) this.failed(failure);
    this.applied.reset(this.options.state().seq);
    this.options.unannounced?.reset(this.options.state().seq);
    this.schedule();
  }

  /** Whether the journal cannot be followed now (`failure`). */
  get failing(): boolean {
    return this.failure !== undefined;
  }

  /** Why the last attempt to follow failed, while it fails. */
  get failureReason(): unknown {
    return this.failure;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.catching;
  }

  /** A record was appended (a notification): apply it and what came before it (once the pause is over, while following fails). */
  appended(): void {
    if (this.due()) void this.catchUp();
  }

  /** Applies every record appended up to now; resolves once applied (a takeover's last step before serving). */
  catchUp(): Promise<void> {
    if (this.catching) {
      this.again = true;
      return this.catching;
    }
    this.catching = this.run().finally(() => {
      this.catching = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.catchUp();
      }
    });
    return this.catching;
  }

  private async run(): Promise<void> {
    try {
      // A follower that failed starts over from the store: its state may have stopped part-way.
      if (this.failing) await this.rebuild();
      await this.applyAppended();
      this.recovered();
    } catch (error) {
      if (this.failing) return this.failed(error);
      // A read that failed left the state at a whole record; anything else may have left it part-way.
      this.options.logger.error({ err: error }, 'following the engine journal failed; recovering the state from the store');
      try {
        await this.rebuild();
      } catch (rebuildError) {
        this.failed(rebuildError);
      }
    }
  }

  /** Applies the records appended after the state, and learns how far the tables are. */
  private async applyAppended(): Promise<void> {
    const { store, records, projected, unannounced } = this.options;
    await replayRecords(store, this.options.state(), (seq, applied, commands) => {
      records.add(applied.changes, commands, true);
      unannounced?.applied(applied);
      this.applied.advance(seq);
    });
    projected.advance(await store.projectedSeq());
    records.projected(projected.value);
  }

  private async rebuild(): Promise<void> {
    await this.options.rebuild();
    this.applied.reset(this.options.state().seq);
  }

  private failed(error: unknown): void {
    const first = !this.failing;
    this.failure = error;
    this.attempts = first ? 1 : this.attempts + 1;
    this.pauseMs = first ? POLL_MS : Math.min(this.pauseMs * 2, MAX_RETRY_PAUSE_MS);
    this.retryAt = performance.now() + this.pauseMs;
    if (first || this.attempts % LOG_EVERY === 0) {
      this.options.logger.error({ err: error, attempts: this.attempts }, 'this node cannot follow the engine journal: it serves no state of the engine and takes no engine over until it can; trying again');
    }
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failure = undefined;
    this.pauseMs = POLL_MS;
    this.options.logger.info({ attempts: this.attempts }, 'this node follows the engine journal again');
  }

  private due(): boolean {
    return !this.failing || performance.now() >= this.retryAt;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const attempt = this.due() ? this.catchUp() : Promise.resolve();
      void attempt.finally(() => this.schedule());
    }, POLL_MS);
    this.timer.unref();
  }
}
