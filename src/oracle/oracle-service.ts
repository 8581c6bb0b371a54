import { notFound, outcomeOrThrow } from '../contract/errors.ts';
import { toResolutionView, type ResolutionView } from '../core/oracle/resolution-view.ts';
import type { Caller, OracleCommand, OracleOutcome } from '../core/oracle/state-machine.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import { findEventRow } from '../store/catalogue-events-repository.ts';
import { findMarketById } from '../store/catalogue-markets-repository.ts';
import type { Db } from '../store/database.ts';
import { findQuestion } from '../store/oracle-questions-repository.ts';
import { questionTerms } from './question-terms.ts';

/** Questions settled per tick at most (the rest wait for the next tick). */
const TICK_BATCH = 100;

export interface OracleDeps {
  db: Db;
  clock: { nowMs(): number };
  /** The engine runs every transition of a question (its bonds and its resolution are balance moves). */
  engine: Pick<MatchingEngine, 'oracle' | 'reads'>;
}

/**
 * The optimistic oracle (EXTENSIONS.md section 4): reads, user and operator proposals, disputes,
 * the operator's decision, and the tick that settles proposals whose window has ended. Each
 * transition is an engine command (src/engine/state/oracle-commands.ts): the question, its bonds
 * and rewards, and a settlement's resolution of the market (its orders cancelled) change in one
 * journal record. This module supplies the catalogue's terms of the question and reads it back.
 */
export class OracleService {
  constructor(private readonly deps: OracleDeps) {}

  /** `adminRead`: the operator sees a DRAFT market's too (EXTENSIONS.md section 11), unproposed. */
  async resolution(marketId: string, adminRead = false): Promise<ResolutionView> {
    const market = await findMarketById(this.deps.db, marketId);
    if (!market || (market.status === 'DRAFT' && !adminRead)) throw notFound('market');
    return toResolutionView(marketId, await findQuestion(this.deps.db, marketId));
  }

  propose(by: Caller, marketId: string, outcome: OracleOutcome): Promise<ResolutionView> {
    return this.run(marketId, { kind: 'propose', by, outcome });
  }

  dispute(by: Extract<Caller, { kind: 'user' }>, marketId: string): Promise<ResolutionView> {
    return this.run(marketId, { kind: 'dispute', by });
  }

  /** The escalation vote on a DISPUTED question: settles it and resolves the market at once. */
  decide(marketId: string, outcome: OracleOutcome): Promise<ResolutionView> {
    return this.run(marketId, { kind: 'decide', outcome });
  }

  /**
   * Settles every undisputed proposal whose window has ended, and resolves its market. The manual
   * clock calls it after moving time; the job calls it on a timer. Returns how many markets it
   * resolved.
   */
  async tick(): Promise<number> {
    let resolved = 0;
    for (const marketId of this.deps.engine.reads.dueQuestions(this.deps.clock.nowMs()).slice(0, TICK_BATCH)) {
      const outcome = await this.deps.engine.oracle(marketId, { kind: 'tick' }, await this.terms(marketId));
      if (outcome.ok) resolved += outcome.resolvedMarketIds.length;
    }
    return resolved;
  }

  private async run(marketId: string, command: OracleCommand): Promise<ResolutionView> {
    const outcome = outcomeOrThrow(await this.deps.engine.oracle(marketId, command, await this.terms(marketId)));
    return toResolutionView(marketId, outcome.state);
  }

  /** The question's terms as the catalogue sets them (its event's bond, reward and liveness; the market's end). */
  private async terms(marketId: string) {
    const market = await findMarketById(this.deps.db, marketId);
    if (!market || market.status === 'DRAFT') throw notFound('market');
    const event = (await findEventRow(this.deps.db, market.event_id))!;
    const { endMs, proposalBondBaseUnits, rewardBaseUnits, livenessMs } = questionTerms(market, event);
    return { endMs, proposalBondBaseUnits, rewardBaseUnits, livenessMs };
  }
}
