import type { Clock } from '../clock.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { inTransaction } from '../settlement/embedded/retry.ts';
import type { Db } from '../store/database.ts';
import { Batch } from './batch.ts';
import type { EngineFence } from './batch-runner.ts';
import type { SettlementRounds } from './settlement-rounds.ts';

export interface BesideQueueOptions {
  db: Db;
  clock: Clock;
  events: DomainEvents;
  rounds: SettlementRounds;
  fence?: EngineFence;
  /** The round committed: balances the engine holds may have moved (BatchRunner.balancesMovedBeside). */
  balancesMoved(): void;
  /** After a round committed and was announced (SettlementSchedule.afterBatch). */
  afterRound(round: { startedMs: number }): void;
}

/**
 * Settlement rounds in a transaction of their own, beside the engine's queue (README.md
 * "Settlement beside the queue"): on PostgreSQL a round holds a connection for a dozen round
 * trips, and in the queue every order behind it waited for them. One round runs at a time. A
 * round only ever adds to what a user has available (a fill's reserved payment leaves the balance
 * and the lock together; tokens and proceeds arrive), so an order batch running meanwhile on the
 * balances it held before the round reserves conservatively; the next batch reads them again.
 */
export class SettlementBesideQueue {
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly options: BesideQueueOptions) {}

  /** Runs a round after the one running, if any; resolves once it committed and was announced. */
  run(): Promise<void> {
    const round = this.last.then(() => this.round());
    this.last = round.catch(() => {});
    return round;
  }

  /** Resolves once no round runs. */
  idle(): Promise<void> {
    return this.last;
  }

  private async round(): Promise<void> {
    const { db, clock, events, rounds, fence } = this.options;
    // Wall-clock time, not the injected clock: this measures the round, it decides nothing.
    const startedMs = performance.now();
    let batch: Batch;
    try {
      // A deadlock victim runs again, announcing only what its last attempt committed.
      batch = await inTransaction(db, async (tx) => {
        const attempt = new Batch(clock.nowMs());
        await fence?.fence(tx);
        await rounds.run(tx, attempt);
        return attempt;
      });
    } catch (error) {
      // Whatever the round had taken on is still to settle.
      rounds.noteMatched();
      throw error;
    }
    this.options.balancesMoved();
    batch.publish();
    events.publish('engine-batch', { commands: 1, trades: 0, durationMs: performance.now() - startedMs, settled: true });
    this.options.afterRound({ startedMs });
  }
}
