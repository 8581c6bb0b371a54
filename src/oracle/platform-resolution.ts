import type { FastifyBaseLogger } from 'fastify';
import { applyOracle, resolveQuestion, type OracleCommand, type OracleOutcome, type OracleResult, type OracleState } from '../core/oracle/state-machine.ts';
import type { Settlement } from '../settlement/types.ts';
import { findEventRow, updateEvent, type EventRow } from '../store/catalogue-events-repository.ts';
import { updateMarket, type MarketRow } from '../store/catalogue-markets-repository.ts';
import type { Db } from '../store/database.ts';
import { findQuestion, lockMarketRow, lockPublishedMarketsOfEvent } from '../store/oracle-questions-repository.ts';
import { applyLedgerEffects } from './ledger-effects.ts';
import { questionTerms } from './question-terms.ts';
import { saveQuestionAndMarket } from './save-question.ts';

export interface ResolutionDeps {
  settlement: Settlement;
  logger: FastifyBaseLogger;
}

/** The outcome of a settling command: the question's state, or the rule that refused it. */
export type SettleOutcome = { ok: true; state: OracleState; resolvedMarketIds: string[] } | Extract<OracleResult, { ok: false }>;

/**
 * Runs a command that may settle a market's question (`tick`, `decide`) and, when it does, the
 * platform resolution, all in the caller's transaction (the engine's, see MatchingEngine
 * .retireMarkets): bonds and reward paid, the payout vector recorded in the ledger, the market
 * RESOLVED with its resolution fields, and in a negRisk event that resolved YES every other market
 * resolved NO (`force`). The event becomes RESOLVED once all its published markets are.
 * Returns the markets it resolved, whose orders the engine then cancels.
 */
export async function settleAndResolve(tx: Db, deps: ResolutionDeps, marketId: string, command: Extract<OracleCommand, { kind: 'tick' | 'decide' }>, nowMs: number): Promise<SettleOutcome> {
  const market = await lockMarketRow(tx, marketId);
  if (!market) return { ok: false, code: 'CONFLICT', message: 'unknown market' };
  const event = (await findEventRow(tx, market.event_id))!;
  const settled = await settleOne(tx, deps, market, event, command, nowMs);
  if (!settled.ok || settled.state.status !== 'SETTLED') return settled.ok ? { ok: true, state: settled.state, resolvedMarketIds: [] } : settled;
  return resolveSettled(tx, deps, market, event, settled.state, nowMs);
}

async function settleOne(tx: Db, deps: ResolutionDeps, market: MarketRow, event: EventRow, command: OracleCommand, nowMs: number): Promise<OracleResult> {
  const state = await findQuestion(tx, market.id, true);
  const result = applyOracle(market.id, state, command, questionTerms(market, event), nowMs);
  if (!result.ok || result.state === state) return result;
  await applyLedgerEffects(tx, deps.settlement, deps.logger, market.id, result.effects);
  await saveQuestionAndMarket(tx, market.id, result.state, nowMs);
  return result;
}

async function resolveSettled(tx: Db, deps: ResolutionDeps, market: MarketRow, event: EventRow, settled: OracleState, nowMs: number): Promise<SettleOutcome> {
  const outcome = settled.finalOutcome!;
  const state = await resolveOne(tx, deps, market, settled, outcome, nowMs);
  const resolvedMarketIds = [market.id];
  if (event.neg_risk && outcome === 'YES') {
    await updateEvent(tx, event.id, { winning_market_id: market.id, is_determined: true, updated_at: new Date(nowMs) });
    const determined = { ...event, winning_market_id: market.id };
    for (const sibling of await lockPublishedMarketsOfEvent(tx, event.id)) {
      if (sibling.id === market.id || sibling.status !== 'ACTIVE') continue;
      const forced = await settleOne(tx, deps, sibling, determined, { kind: 'force', outcome: 'NO' }, nowMs);
      if (!forced.ok) continue;
      await resolveOne(tx, deps, sibling, forced.state, 'NO', nowMs);
      resolvedMarketIds.push(sibling.id);
    }
  }
  await closeEventWhenAllResolved(tx, event.id, nowMs);
  return { ok: true, state, resolvedMarketIds };
}

/** SETTLED → RESOLVED: the ledger's payout vector and the market's resolution fields. */
async function resolveOne(tx: Db, deps: ResolutionDeps, market: MarketRow, settled: OracleState, outcome: OracleOutcome, nowMs: number): Promise<OracleState> {
  const resolved = resolveQuestion(settled, nowMs);
  if (!resolved.ok) throw new Error(`market ${market.id}: ${resolved.message}`);
  const now = new Date(nowMs);
  await saveQuestionAndMarket(tx, market.id, resolved.state, nowMs);
  await deps.settlement.resolveMarket(tx, { conditionId: market.condition_id!, tokenId1: market.token_id1!, tokenId2: market.token_id2! }, outcome);
  await updateMarket(tx, market.id, {
    status: 'RESOLVED',
    is_resolved: true,
    is_settled: true,
    market_resolved_to: outcome,
    resolved_on_adapter_timestamp: BigInt(Math.floor(nowMs / 1000)),
    updated_at: now,
  });
  return resolved.state;
}

async function closeEventWhenAllResolved(tx: Db, eventId: string, nowMs: number): Promise<void> {
  const markets = await lockPublishedMarketsOfEvent(tx, eventId);
  if (markets.length > 0 && markets.every((m) => m.status === 'RESOLVED')) await updateEvent(tx, eventId, { status: 'RESOLVED', updated_at: new Date(nowMs) });
}
