import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { PayoutReports } from '../chain/index.ts';
import type { EngineReads } from '../engine/engine-reads.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import { findMarketById } from '../store/catalogue-markets-repository.ts';
import { retryUntilDone } from './retry-until-done.ts';

/** How often a report waiting for its market's trades looks again. */
const SETTLED_POLL_MS = 100;
/** A report that has waited this long for its market's trades says so (a warning), once. */
const LONG_WAIT_MS = 30_000;
/** A report waits at most this long for its market's trades, then is made anyway: those trades fail (MarketResolved). */
const MAX_WAIT_MS = 10 * 60_000;
/** A redeem that needs the report waits at most this long for the market's trades, then answers 503. */
const REDEEM_WAIT_MS = 5_000;

export interface ResolutionReporterTimings {
  readonly pollMs?: number;
  readonly longWaitMs?: number;
  readonly maxWaitMs?: number;
  readonly redeemWaitMs?: number;
}

/** A redeem asked for a report while the market's last trades were still settling on chain. */
export class MarketStillSettlingError extends Error {
  constructor(marketId: string, trades: number) {
    super(`market ${marketId} has ${trades} trade(s) matched before its resolution still settling on chain; its outcome is reported on chain once they are mined`);
    this.name = 'MarketStillSettlingError';
  }
}

/**
 * Reports each resolved market's outcome on chain (EXTENSIONS.md section 14): the operator, the
 * condition's oracle, calls ConditionalTokens' `reportPayouts` with the ledger's payout vector
 * (YES [1,0], NO [0,1], TIE [1,1]) under the questionId the market was prepared with. It acts on
 * `market-resolved`, which the engine publishes once the resolution is durable, retrying until
 * the report is mined; at `start` it reports every resolved market the chain does not know yet (a
 * resolution durable just before a stop or a crash). Reporting twice is harmless: `report` skips a
 * condition whose payout denominator is set. Run by the engine's node only (it holds the chain).
 *
 * The exchange refuses every fill of a market whose payouts are reported (`MarketResolved`), so a
 * report waits until no trade of the market is still to be sent or mined (`tradesAwaitingChain`):
 * trades matched just before the resolution settle first. It waits at most `maxWaitMs` (10 min),
 * warning after `longWaitMs` (30 s) and again when it reports anyway; trades still unsettled then
 * fail on chain, and their reservations return, as any failed match's do.
 */
export class ResolutionReporter {
  /** Markets whose report is being retried, so an event and the start's sweep do not both retry one. */
  private readonly retrying = new Set<string>();
  /** Markets this reporter saw reported on chain (by itself, or found reported): a redeem needs nothing more for them. */
  private readonly reported = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly timings: Required<ResolutionReporterTimings>;

  constructor(private readonly deps: {
    db: Db;
    reads: Pick<EngineReads, 'payoutOf' | 'resolvedMarketIds' | 'tradesAwaitingChain'>;
    reports: PayoutReports;
    events: DomainEvents;
    logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
    timings?: ResolutionReporterTimings;
  }) {
    this.timings = { pollMs: SETTLED_POLL_MS, longWaitMs: LONG_WAIT_MS, maxWaitMs: MAX_WAIT_MS, redeemWaitMs: REDEEM_WAIT_MS, ...deps.timings };
  }

  /** Listens for resolutions, then reports, one market after the other, those the chain lacks. */
  start(): void {
    this.stopped = false;
    this.unsubscribe = this.deps.events.subscribe('market-resolved', ({ marketId }) => void this.reportUntilMined(marketId));
    void this.catchUp();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * Reports a resolved market now, once: what a redeem waits for. Throws when the chain fails, and
   * (MarketStillSettlingError) when trades of the market are still to be mined after
   * `redeemWaitMs`: reporting would make them fail.
   */
  async reportNow(marketId: string): Promise<void> {
    if (this.reported.has(marketId)) return;
    const waiting = await this.untilSettled(marketId, this.timings.redeemWaitMs);
    if (waiting > 0) throw new MarketStillSettlingError(marketId, waiting);
    await this.report(marketId);
  }

  private async report(marketId: string): Promise<void> {
    const payout = this.deps.reads.payoutOf(marketId);
    if (!payout) throw new Error(`market ${marketId} is not resolved`);
    const market = await findMarketById(this.deps.db, marketId);
    if (!market?.question_id || !market.condition_id) throw new Error(`market ${marketId} has no condition`);
    const txHash = await this.deps.reports.report({ questionId: market.question_id as Hex, conditionId: market.condition_id as Hex }, [BigInt(payout.payout1), BigInt(payout.payout2)]);
    this.reported.add(marketId);
    if (txHash) this.deps.logger.info({ marketId, txHash }, 'resolution reported on chain');
  }

  /**
   * Waits, up to `maxMs`, until no trade of the market waits to be sent or mined; returns how many
   * still do. `reporting`: the reporter's own wait, which ends (0) when it stops and warns once
   * after `longWaitMs`; a redeem's wait does neither.
   */
  private async untilSettled(marketId: string, maxMs: number, reporting = false): Promise<number> {
    const startedAt = Date.now();
    let warned = false;
    for (;;) {
      if (reporting && this.stopped) return 0;
      const waiting = this.deps.reads.tradesAwaitingChain(marketId);
      const waitedMs = Date.now() - startedAt;
      if (waiting === 0 || waitedMs >= maxMs) return waiting;
      if (reporting && !warned && waitedMs >= this.timings.longWaitMs) {
        warned = true;
        this.deps.logger.warn({ marketId, trades: waiting, waitedMs }, 'a resolution waits to be reported on chain until the trades matched before it are mined');
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.timings.pollMs, maxMs - waitedMs)).unref());
    }
  }

  /** Waits for the market's trades (at most `maxWaitMs`), then reports, retrying until mined. */
  private async reportUntilMined(marketId: string): Promise<void> {
    if (this.retrying.has(marketId)) return;
    this.retrying.add(marketId);
    try {
      const { logger } = this.deps;
      const left = await this.untilSettled(marketId, this.timings.maxWaitMs, true);
      if (this.stopped) return;
      if (left > 0) logger.warn({ marketId, trades: left, waitedMs: this.timings.maxWaitMs }, 'reporting a resolution on chain though trades matched before it are not mined yet: they will fail (MarketResolved) and their reservations return');
      await retryUntilDone(() => this.report(marketId), {
        stopped: () => this.stopped,
        failed: (error, retryInMs) => logger.warn({ err: error, marketId, retryInMs }, 'reporting a resolution on chain failed; retrying'),
      });
    } finally {
      this.retrying.delete(marketId);
    }
  }

  /**
   * One market at a time: a store of many resolved markets must not fill the operator's queue. A
   * market whose trades are still settling waits beside the others rather than hold them up.
   */
  private async catchUp(): Promise<void> {
    for (const marketId of this.deps.reads.resolvedMarketIds()) {
      if (this.stopped) return;
      if (this.deps.reads.tradesAwaitingChain(marketId) > 0) void this.reportUntilMined(marketId);
      else await this.reportUntilMined(marketId);
    }
  }
}
