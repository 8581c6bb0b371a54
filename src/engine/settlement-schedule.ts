import type { FastifyBaseLogger } from 'fastify';
import type { Settlement } from '../settlement/types.ts';
import type { SettlementRounds } from './settlement-rounds.ts';

interface ScheduleOptions {
  rounds: SettlementRounds;
  settlement: Settlement;
  logger: FastifyBaseLogger;
  /** Least time between the starts of two automatic rounds (EngineOptions.settlementBlockMs). */
  blockMs: number;
  /** Submits a round to the engine's queue. */
  runRound(): Promise<unknown>;
  /** Whether the engine takes commands: a stopped engine schedules nothing. */
  running(): boolean;
}

/**
 * When automatic settlement rounds run: only while trades wait to be mined or confirmed, at most
 * one per block (the next starts `blockMs` after the last one started), and each round's trades
 * sealed into a block once its batch committed.
 */
export class SettlementSchedule {
  private timer: NodeJS.Timeout | undefined;
  /** When the last round started (performance.now()), for the block interval. */
  private lastRoundMs = -Infinity;

  constructor(private readonly options: ScheduleOptions) {}

  /** After a batch is durable: its trades wait for a round, and a round it ran is sealed into a block. */
  async afterBatch(batch: { trades: number; ranRound: boolean; startedMs: number }): Promise<void> {
    if (batch.trades > 0) this.options.rounds.noteMatched();
    if (batch.ranRound) {
      this.lastRoundMs = batch.startedMs;
      await this.sealBlock();
    }
    this.schedule();
  }

  /** Sets the timer of the next round when there is work for one and none is set. */
  schedule(): void {
    if (!this.options.rounds.hasWork || this.timer || !this.options.running()) return;
    const waitMs = Math.max(0, this.lastRoundMs + this.options.blockMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.options.running() && this.options.rounds.hasWork) {
        void this.options.runRound().catch((error) => this.options.logger.error({ err: error }, 'settlement round failed'));
      }
    }, waitMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Trades mined by a round go into a block; the next round confirms them. */
  private async sealBlock(): Promise<void> {
    try {
      await this.options.settlement.sealBlock();
    } catch (error) {
      this.options.logger.error({ err: error }, 'sealing a settlement block failed; the next round seals it');
    }
  }
}
