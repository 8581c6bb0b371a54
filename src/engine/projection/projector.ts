import type { FastifyBaseLogger } from 'fastify';
import type { SeqWatch } from '../seq-watch.ts';
import { mergeChanges, type MergedChanges } from './merged-changes.ts';
import type { UnprojectedRecords } from './unprojected-records.ts';

/** Most commands one projection writes: a bound on its statement, so journal appends never wait long behind it. */
const MAX_PROJECTION_COMMANDS = 2_000;
/** The wait before a failed projection is tried again. */
const RETRY_MS = 200;

export interface ProjectorOptions {
  records: UnprojectedRecords;
  /** The tables' projected sequence, which this projector moves as it writes. */
  projected: SeqWatch;
  /** Writes merged records into the tables and moves their projected sequence, exactly once (store/engine-projection-writes.ts). */
  write(merged: MergedChanges): Promise<void>;
  /** The tables' projected sequence as stored, after a write that another projector may have made first. */
  readProjectedSeq(): Promise<bigint>;
  /** After the tables took records (`merged`: undefined when another projector had written them). */
  wrote(merged: MergedChanges | undefined): void;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/**
 * Writes the journal's durable records into the tables, in order, as fast as the store takes them
 * (README.md "Projection"): while one projection is written the records that become durable
 * meanwhile wait, and the next projection merges all of them, so the tables' cost is paid in
 * large batches when the engine is busy and at once when it is not. One projection at a time.
 */
export class Projector {
  private running: Promise<void> | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ProjectorOptions) {}

  /** Starts from the tables' projected sequence: the records after it are in `records`, those up to it leave. */
  start(projectedSeq: bigint): void {
    this.options.projected.reset(projectedSeq);
    this.options.records.projected(projectedSeq);
    this.stopped = false;
    this.kick();
  }

  /** Records became durable: project them unless a projection is under way (it looks again when it ends). */
  kick(): void {
    if (this.running || this.stopped || this.retryTimer) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Stops projecting once the projection under way ended; what is left waits for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.running;
  }

  /** Projects every durable record (the engine stops: what it acknowledged goes into the tables now). */
  async flush(): Promise<void> {
    await this.running;
    await this.drain();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const prefix = this.options.records.durablePrefix(MAX_PROJECTION_COMMANDS);
      if (prefix.length === 0) return;
      const merged = mergeChanges(prefix);
      try {
        await this.options.write(merged);
        this.advance(merged.last, merged);
      } catch (error) {
        if (await this.someoneElseWrote(merged)) continue;
        this.options.logger.error({ err: error, first: merged.first.toString(), last: merged.last.toString() }, 'engine projection failed; retrying');
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.kick();
        }, RETRY_MS);
        this.retryTimer.unref();
        return;
      }
    }
  }

  /** A projection refused as already written (a previous run of this engine wrote it before it died): skip what the tables hold. */
  private async someoneElseWrote(merged: MergedChanges): Promise<boolean> {
    const stored = await this.options.readProjectedSeq().catch(() => undefined);
    if (stored === undefined || stored < merged.first) return false;
    this.advance(stored, undefined);
    return true;
  }

  private advance(seq: bigint, merged: MergedChanges | undefined): void {
    this.options.records.projected(seq);
    this.options.projected.advance(seq);
    this.options.wrote(merged);
  }
}
