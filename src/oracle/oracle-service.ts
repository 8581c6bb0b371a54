import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../contract/errors.ts';
import type { Clock } from '../clock.ts';
import { toResolutionView, type ResolutionView } from '../core/oracle/resolution-view.ts';
import { applyOracle, type Caller, type OracleCommand, type OracleOutcome, type OracleResult } from '../core/oracle/state-machine.ts';
import type { RetireWork } from '../engine/engine.ts';
import type { MoveBalances, Settlement } from '../settlement/types.ts';
import { findEventRow } from '../store/catalogue-events-repository.ts';
import { findMarketById } from '../store/catalogue-markets-repository.ts';
import type { Db } from '../store/database.ts';
import { findDueProposals, findQuestion, lockMarketRow } from '../store/oracle-questions-repository.ts';
import { applyLedgerEffects } from './ledger-effects.ts';
import { settleAndResolve, type SettleOutcome } from './platform-resolution.ts';
import { questionTerms } from './question-terms.ts';
import { saveQuestionAndMarket } from './save-question.ts';

/** Questions settled per tick at most (the rest wait for the next tick). */
const TICK_BATCH = 100;

export interface OracleDeps {
  db: Db;
  clock: Clock;
  settlement: Settlement;
  logger: FastifyBaseLogger;
  /** MatchingEngine.retireMarkets: resolution runs inside the engine's queue and transaction. */
  retireMarkets<T>(work: RetireWork<T>): Promise<T>;
  /** Bonds are reserved where the engine runs, like every balance change. */
  moveBalances: MoveBalances;
}

/**
 * The optimistic oracle (EXTENSIONS.md section 4): reads, user and operator proposals, disputes,
 * the operator's decision, and the tick that settles proposals whose window has ended. Proposals
 * and disputes run in the engine's queue (`moveBalances`: they reserve bonds); anything that settles
 * a question goes through the engine (`retireMarkets`) so the market stops trading in the same
 * transaction that resolves it.
 */
export class OracleService {
  constructor(private readonly deps: OracleDeps) {}

  async resolution(marketId: string): Promise<ResolutionView> {
    const market = await findMarketById(this.deps.db, marketId);
    if (!market || market.status === 'DRAFT') throw notFound('market');
    return toResolutionView(marketId, await findQuestion(this.deps.db, marketId));
  }

  propose(by: Caller, marketId: string, outcome: OracleOutcome): Promise<ResolutionView> {
    return this.bondCommand(marketId, { kind: 'propose', by, outcome });
  }

  dispute(by: Extract<Caller, { kind: 'user' }>, marketId: string): Promise<ResolutionView> {
    return this.bondCommand(marketId, { kind: 'dispute', by });
  }

  /** The escalation vote on a DISPUTED question: settles it and resolves the market at once. */
  async decide(marketId: string, outcome: OracleOutcome): Promise<ResolutionView> {
    await this.requirePublished(marketId);
    const result = await this.settle(marketId, { kind: 'decide', outcome });
    if (!result.ok) throw new AppError(result.code, result.message);
    return toResolutionView(marketId, result.state);
  }

  /**
   * Settles every undisputed proposal whose window has ended and resolves its market (both in one
   * transaction, so a question is never left SETTLED but unresolved). The manual clock calls it after moving time; the job
   * calls it on a timer. Returns how many markets it resolved.
   */
  async tick(): Promise<number> {
    const { db, clock } = this.deps;
    let resolved = 0;
    for (const marketId of await findDueProposals(db, new Date(clock.nowMs()), TICK_BATCH)) {
      const result = await this.settle(marketId, { kind: 'tick' });
      if (result.ok) resolved += result.resolvedMarketIds.length;
    }
    return resolved;
  }

  private settle(marketId: string, command: Extract<OracleCommand, { kind: 'tick' | 'decide' }>): Promise<SettleOutcome> {
    return this.deps.retireMarkets(async (tx) => {
      const result = await settleAndResolve(tx, this.deps, marketId, command, this.deps.clock.nowMs());
      return { marketIds: result.ok ? result.resolvedMarketIds : [], result };
    });
  }

  /** Propose or dispute: the bond is reserved in the same transaction that records the question. */
  private async bondCommand(marketId: string, command: Extract<OracleCommand, { kind: 'propose' | 'dispute' }>): Promise<ResolutionView> {
    await this.requirePublished(marketId);
    const { settlement, clock } = this.deps;
    const result: OracleResult = await this.deps.moveBalances(async (tx) => {
      const market = (await lockMarketRow(tx, marketId))!;
      const event = (await findEventRow(tx, market.event_id))!;
      const nowMs = clock.nowMs();
      const applied = applyOracle(marketId, await findQuestion(tx, marketId, true), command, questionTerms(market, event), nowMs);
      if (!applied.ok) return applied;
      await applyLedgerEffects(tx, settlement, this.deps.logger, marketId, applied.effects);
      await saveQuestionAndMarket(tx, marketId, applied.state, nowMs);
      return applied;
    });
    if (!result.ok) throw new AppError(result.code, result.message);
    return toResolutionView(marketId, result.state);
  }

  private async requirePublished(marketId: string): Promise<void> {
    const market = await findMarketById(this.deps.db, marketId);
    if (!market || market.status === 'DRAFT') throw notFound('market');
  }
}
