import type { FastifyBaseLogger } from 'fastify';

export interface ScheduleOptions {
  /** Whether trades wait to be mined or confirmed. */
  hasWork(): boolean;
  logger: Pick<FastifyBaseLogger, 'error'>;
  /** Least time between the starts of two automatic rounds (EngineOptions.settlementBlockMs). */
  blockMs: number;
  /** Submits a round to the engine's queue; resolves once it ran. */
  runRound(): Promise<unknown>;
  /** Whether the engine takes commands: a stopped engine schedules nothing. */
  running(): boolean;
}

/**
 * When automatic settlement rounds run: only while trades wait to be mined or confirmed, and at
 * most one per block: the next is submitted `blockMs` after the last one started, and never while
 * one submitted is still waiting in the queue.
 */
export class SettlementSchedule {
  private timer: NodeJS.Timeout | undefined;
  /** A round submitted and not finished: the next one is timed once it is (it may be late in a busy queue). */
  private inFlight: Promise<void> | undefined;
  /** When the last round started (performance.now()), for the block interval. */
  private lastRoundMs = -Infinity;

  constructor(private readonly options: ScheduleOptions) {}

  /** Sets the timer of the next round when there is work for one and neither a timer nor a round waits. */
  schedule(): void {
    if (!this.options.hasWork() || this.timer || this.inFlight || !this.options.running()) return;
    const waitMs = Math.max(0, this.lastRoundMs + this.options.blockMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.options.running() || !this.options.hasWork()) return;
      this.lastRoundMs = performance.now();
      this.inFlight = this.options.runRound()
        .then(() => {}, (error) => {
          // A round refused because the engine is stopping is the stop, not a failure.
          if (this.options.running()) this.options.logger.error({ err: error }, 'settlement round failed');
        })
        .finally(() => {
          this.inFlight = undefined;
          this.schedule();
        });
    }, waitMs);
  }

  /**
   * Resolves once the round this schedule submitted, if one is in flight, has finished (failed
   * ones too).
   */
  idle(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
