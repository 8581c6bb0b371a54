import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import { insertPriceSamples, type PriceSample } from '../store/price-samples-repository.ts';
import { startIntervalJob } from './interval-job.ts';

const MINUTE_MS = 60_000;
/** How often the real-clock job looks whether a new minute began (a tick within the same minute writes nothing). */
const TICK_INTERVAL_MS = 1_000;

/**
 * The most minutes one tick fills in after the clock jumped (or the process stalled). Older
 * minutes stay unsampled and price history carries the previous price over them, which is what
 * the samples would have said anyway: the book cannot change while no tick runs.
 */
export const MAX_CATCH_UP_MINUTES = 1_440;
/** And at most this many rows per tick, so a jump with many two-sided books stays bounded in memory and time. */
const MAX_ROWS_PER_TICK = 100_000;

/** What the sampler reads of the matching engine's in-memory books. */
export interface SampledBooks {
  /** Every market with a book (published and not resolved). */
  loadedMarkets(): { id: string; tokenId1: string; isResolved: boolean }[];
  /** The midpoint of the token's book, or undefined when the book is not two-sided. */
  midpointMicros(tokenId: string): bigint | undefined;
}

/**
 * Records the book midpoint of every active market once per minute (issue 6: price history
 * from trades and periodic midpoint samples). A tick samples every minute since the last one it
 * sampled, up to the current minute, so a clock that jumps (the manual clock, a stalled loop) is
 * caught up minute by minute with the book as it stands. Only the node running the engine has
 * books, so only it `start`s the sampler; elsewhere `tick` does nothing. Markets whose book is one-sided
 * or empty have no midpoint and get no sample for that minute.
 */
export class PriceSampler {
  private enabled = false;
  private job: { stop(): Promise<void> } | undefined;
  /** The last minute sampled (minutes since the epoch). */
  private lastMinute: number | undefined;

  constructor(private readonly deps: { db: Db; clock: Clock; books: SampledBooks; logger: FastifyBaseLogger }) {}

  /** On the engine's node: samples from now on, on a timer with the real clock (POST /admin/clock ticks the manual one). */
  start(): void {
    this.enabled = true;
    // The first tick samples the minute the sampler started in, and every minute since.
    this.lastMinute ??= Math.floor(this.deps.clock.nowMs() / MINUTE_MS) - 1;
    if (this.deps.clock.kind === 'real' && !this.job) this.job = startIntervalJob('price sampler', () => this.tick(), this.deps.logger, TICK_INTERVAL_MS);
  }

  async stop(): Promise<void> {
    this.enabled = false;
    await this.job?.stop();
    this.job = undefined;
  }

  /** Samples the minutes not sampled yet; returns how many rows it wrote. */
  async tick(): Promise<number> {
    if (!this.enabled) return 0;
    const nowMinute = Math.floor(this.deps.clock.nowMs() / MINUTE_MS);
    if (this.lastMinute !== undefined && this.lastMinute >= nowMinute) return 0;
    // Read every book before the first await, so all markets are sampled at the same instant.
    const mids = this.deps.books.loadedMarkets().flatMap((market) => {
      const midMicros = market.isResolved ? undefined : this.deps.books.midpointMicros(market.tokenId1);
      return midMicros === undefined ? [] : [{ marketId: market.id, midMicros }];
    });
    const catchUpMinutes = Math.max(1, Math.min(MAX_CATCH_UP_MINUTES, Math.floor(MAX_ROWS_PER_TICK / Math.max(1, mids.length))));
    const firstMinute = Math.max((this.lastMinute ?? nowMinute - 1) + 1, nowMinute - catchUpMinutes + 1);
    const samples: PriceSample[] = [];
    for (let minute = firstMinute; minute <= nowMinute; minute++) {
      for (const mid of mids) samples.push({ ...mid, minuteSec: minute * 60 });
    }
    await insertPriceSamples(this.deps.db, samples);
    this.lastMinute = nowMinute;
    return samples.length;
  }
}
