import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { PayoutReports } from '../chain/index.ts';
import type { EngineReads } from '../engine/engine-reads.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import { findMarketById } from '../store/catalogue-markets-repository.ts';
import { retryUntilDone } from './retry-until-done.ts';

/**
 * Reports each resolved market's outcome on chain (EXTENSIONS.md section 14): the operator, the
 * condition's oracle, calls ConditionalTokens' `reportPayouts` with the ledger's payout vector
 * (YES [1,0], NO [0,1], TIE [1,1]) under the questionId the market was prepared with. It acts on
 * `market-resolved`, which the engine publishes once the resolution is durable, retrying until
 * the report is mined; at `start` it reports every resolved market the chain does not know yet (a
 * resolution durable just before a stop or a crash). Reporting twice is harmless: `report` skips a
 * condition whose payout denominator is set. Run by the engine's node only (it holds the chain).
 */
export class ResolutionReporter {
  /** Markets whose report is being retried, so an event and the start's sweep do not both retry one. */
  private readonly retrying = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly deps: {
    db: Db;
    reads: Pick<EngineReads, 'payoutOf' | 'resolvedMarketIds'>;
    reports: PayoutReports;
    events: DomainEvents;
    logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  }) {}

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

  /** Reports a resolved market now, once: what a redeem waits for. Throws when the chain fails. */
  async reportNow(marketId: string): Promise<void> {
    const payout = this.deps.reads.payoutOf(marketId);
    if (!payout) throw new Error(`market ${marketId} is not resolved`);
    const market = await findMarketById(this.deps.db, marketId);
    if (!market?.question_id || !market.condition_id) throw new Error(`market ${marketId} has no condition`);
    const txHash = await this.deps.reports.report({ questionId: market.question_id as Hex, conditionId: market.condition_id as Hex }, [BigInt(payout.payout1), BigInt(payout.payout2)]);
    if (txHash) this.deps.logger.info({ marketId, txHash }, 'resolution reported on chain');
  }

  private async reportUntilMined(marketId: string): Promise<void> {
    if (this.retrying.has(marketId)) return;
    this.retrying.add(marketId);
    try {
      await retryUntilDone(() => this.reportNow(marketId), {
        stopped: () => this.stopped,
        failed: (error, retryInMs) => this.deps.logger.warn({ err: error, marketId, retryInMs }, 'reporting a resolution on chain failed; retrying'),
      });
    } finally {
      this.retrying.delete(marketId);
    }
  }

  /** One market at a time: a store of many resolved markets must not fill the operator's queue. */
  private async catchUp(): Promise<void> {
    for (const marketId of this.deps.reads.resolvedMarketIds()) {
      if (this.stopped) return;
      await this.reportUntilMined(marketId);
    }
  }
}
