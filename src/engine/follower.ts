import type { FastifyBaseLogger } from 'fastify';
import type { EngineStore } from './journal/journal-store.ts';
import type { UnprojectedRecords } from './projection/unprojected-records.ts';
import { replayRecords } from './recovery.ts';
import { SeqWatch } from './seq-watch.ts';
import type { EngineState } from './state/engine-state.ts';

/** How often a follower looks at the journal when no notification came (they can be lost). */
const POLL_MS = 200;

export interface FollowerOptions {
  store: EngineStore;
  state(): EngineState;
  records: UnprojectedRecords;
  /** The tables' projected sequence as this node last saw it. */
  projected: SeqWatch;
  /** The state went wrong part-way through a record (a bug): it is recovered from the store. */
  rebuild(): Promise<void>;
  logger: Pick<FastifyBaseLogger, 'error'>;
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

  constructor(private readonly options: FollowerOptions) {}

  start(): void {
    this.stopped = false;
    this.applied.reset(this.options.state().seq);
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.catching;
  }

  /** A record was appended (a notification): apply it and what came before it. */
  appended(): void {
    void this.catchUp();
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
    const { store, records, projected } = this.options;
    const state = this.options.state();
    try {
      await replayRecords(store, state, (seq, changes, commands) => {
        records.add(changes, commands, true);
        this.applied.advance(seq);
      });
      projected.advance(await store.projectedSeq());
      records.projected(projected.value);
    } catch (error) {
      // A read that failed left the state at a whole record; anything else may have left it part-way.
      this.options.logger.error({ err: error }, 'following the engine journal failed; recovering the state from the store');
      await this.options.rebuild().catch((rebuildError: unknown) => this.options.logger.error({ err: rebuildError }, 'recovering the followed state failed; trying again'));
      this.applied.reset(this.options.state().seq);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.catchUp().finally(() => this.schedule());
    }, POLL_MS);
    this.timer.unref();
  }
}
