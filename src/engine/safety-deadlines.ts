import type { Clock } from '../clock.ts';

export interface SafetyDeadlinesOptions {
  clock: Clock;
  /** The earliest heartbeat or reconnect-grace deadline the state holds. */
  nextDueMs(): number | undefined;
  /** Submits a tick, which cancels what is due (the deadlines are state: the tick decides). */
  tick(): Promise<unknown>;
  onError(error: unknown): void;
  /** Whether the engine takes commands: a tick answered after a stop must not arm a timer on a standby. */
  running(): boolean;
}

/**
 * Wakes the engine at the next market-maker safety deadline (EXTENSIONS.md section 15) rather than
 * at the next of its 1 s ticks, so a heartbeat's orders go within a few milliseconds of
 * `expiresAt`. It only times: the deadlines live in the engine's state (journaled, in snapshots),
 * so an engine that takes over sets this from the state it recovered.
 */
export class SafetyDeadlines {
  private timer: NodeJS.Timeout | undefined;
  private dueMs: number | undefined;

  constructor(private readonly options: SafetyDeadlinesOptions) {}

  /** Re-reads the next deadline (after a record changed the safety state, or a start). */
  update(): void {
    const next = this.options.running() ? this.options.nextDueMs() : undefined;
    if (next === this.dueMs && this.timer) return;
    this.stop();
    if (next === undefined) return;
    this.dueMs = next;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueMs = undefined;
      this.options.tick().then(() => this.update(), this.options.onError);
    }, Math.max(0, next - this.options.clock.nowMs()));
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dueMs = undefined;
  }
}
