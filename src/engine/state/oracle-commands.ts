import { applyOracle, resolveQuestion, UNPROPOSED, type OracleCommand, type OracleEffect, type OracleOutcome, type OracleState, type QuestionTerms } from '../../core/oracle/state-machine.ts';
import { FEE_ACCOUNT, REWARD_TREASURY } from '../../settlement/accounts.ts';
import { PAYOUTS, transferPosting } from '../../settlement/embedded/postings.ts';
import { COLLATERAL, InsufficientBalanceError } from '../../settlement/types.ts';
import { failure, type ApplyContext, type EngineFailure } from './apply-context.ts';
import { tokensOf } from './balance-commands.ts';
import { releaseOracleEscrow } from './oracle-escrow.ts';
import { retireMarkets } from './order-commands.ts';

/** The terms of a question that come from the catalogue (its event's bond, reward and liveness, the market's end). */
export type CatalogueTerms = Omit<QuestionTerms, 'marketActive' | 'yesExcluded'>;

export type OracleCommandOutcome = { ok: true; state: OracleState; resolvedMarketIds: string[] } | EngineFailure;

/**
 * The optimistic oracle (EXTENSIONS.md section 4) in the engine: the question's pure state machine
 * (core/oracle/state-machine.ts) applied to the question the engine holds, its bonds, rewards and
 * forfeits moved in the ledger, and, when the question settles, the platform resolution in the
 * same record: the payout vector, the market RESOLVED and retired (its open orders cancelled),
 * in a neg-risk event that resolved YES every other market forced to NO, and the event RESOLVED
 * once all its markets are. Whether the market is active and whether a sibling already took YES
 * are the engine's own state; the rest of the terms come with the command.
 */
export function applyOracleCommand(ctx: ApplyContext, marketId: string, command: OracleCommand, terms: CatalogueTerms): OracleCommandOutcome {
  const info = ctx.state.markets.get(marketId);
  if (!info) return failure('CONFLICT', 'unknown market');
  const applied = step(ctx, marketId, command, terms);
  if (!applied.ok || applied.state.status !== 'SETTLED') return applied.ok ? { ok: true, state: applied.state, resolvedMarketIds: [] } : applied;
  const outcome = applied.state.finalOutcome!;
  const state = resolve(ctx, marketId, applied.state, outcome);
  const resolved = [marketId];
  if (info.negRisk && outcome === 'YES') {
    ctx.state.winningMarketOfEvent.set(info.eventId, marketId);
    ctx.effects.eventChanged({ eventId: info.eventId, winningMarketId: marketId });
    // In market-id order: each forced settlement records ledger transactions, numbered in this order.
    for (const sibling of [...ctx.state.markets.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (sibling.eventId !== info.eventId || sibling.id === marketId || sibling.status !== 'ACTIVE') continue;
      const forced = step(ctx, sibling.id, { kind: 'force', outcome: 'NO' }, terms);
      if (!forced.ok) continue;
      resolve(ctx, sibling.id, forced.state, 'NO');
      resolved.push(sibling.id);
    }
  }
  retireMarkets(ctx, resolved);
  const eventMarkets = [...ctx.state.markets.values()].filter((m) => m.eventId === info.eventId);
  if (eventMarkets.every((m) => m.status === 'RESOLVED')) ctx.effects.eventChanged({ eventId: info.eventId, resolved: true });
  return { ok: true, state, resolvedMarketIds: resolved };
}

/** One transition of a question, its ledger effects applied; the state unchanged when nothing is due. */
function step(ctx: ApplyContext, marketId: string, command: OracleCommand, catalogue: CatalogueTerms): { ok: true; state: OracleState } | EngineFailure {
  const { state } = ctx;
  const info = state.markets.get(marketId)!;
  const winner = state.winningMarketOfEvent.get(info.eventId);
  const terms: QuestionTerms = { ...catalogue, marketActive: info.status === 'ACTIVE' && !info.isResolved, yesExcluded: info.negRisk && winner !== undefined && winner !== marketId };
  const current = state.questions.get(marketId) ?? UNPROPOSED;
  const result = applyOracle(marketId, current, command, terms, ctx.atMs);
  if (!result.ok) return failure(result.code, result.message);
  if (result.state === current) return { ok: true, state: current };
  try {
    applyEffects(ctx, marketId, result.effects);
  } catch (error) {
    // A bond the holder cannot cover: only a proposal or a dispute locks, before anything else moved.
    if (error instanceof InsufficientBalanceError) return failure('INSUFFICIENT_BALANCE', error.message);
    throw error;
  }
  save(ctx, marketId, result.state);
  return { ok: true, state: result.state };
}

/** SETTLED → RESOLVED: the ledger's payout vector and the market's resolution. */
function resolve(ctx: ApplyContext, marketId: string, settled: OracleState, outcome: OracleOutcome): OracleState {
  const resolved = resolveQuestion(settled, ctx.atMs);
  if (!resolved.ok) throw new Error(`market ${marketId}: ${resolved.message}`);
  const info = ctx.state.markets.get(marketId)!;
  ctx.state.ledger.resolve(tokensOf(info), PAYOUTS[outcome], ctx.atMs);
  // A reward escrowed and not paid (the operator's side was right, or a forced NO) goes back to the treasury.
  releaseOracleEscrow(ctx, marketId);
  ctx.state.markets.set(marketId, { ...info, status: 'RESOLVED', isResolved: true });
  save(ctx, marketId, resolved.state);
  ctx.effects.resolved({ marketId, outcome, atMs: ctx.atMs });
  return resolved.state;
}

function save(ctx: ApplyContext, marketId: string, state: OracleState): void {
  ctx.state.questions.set(marketId, state);
  ctx.effects.question(marketId, state);
}

/**
 * Bonds are reserved in their holder's own collateral (balance unchanged, available lower);
 * payments are ledger transfers. The reward comes from the reward treasury, out of the market's
 * escrow (oracle-escrow.ts) when it has one: when the treasury cannot cover it, the question still
 * settles without it, and the engine says so in its log.
 */
function applyEffects(ctx: ApplyContext, marketId: string, effects: OracleEffect[]): void {
  const { balances, ledger } = ctx.state;
  for (const effect of effects) {
    if (effect.kind === 'lock') balances.reserve(effect.account, COLLATERAL, effect.amount);
    else if (effect.kind === 'unlock') balances.release(effect.account, COLLATERAL, effect.amount);
    else {
      const from = effect.from === 'treasury' ? REWARD_TREASURY : effect.from;
      if (effect.from === 'treasury') {
        releaseOracleEscrow(ctx, marketId);
        if (balances.available(REWARD_TREASURY, COLLATERAL) < effect.amount) {
          ctx.effects.warn({ marketId, amount: effect.amount.toString() }, 'reward treasury cannot cover the oracle reward; settled without it');
          continue;
        }
      }
      const to = effect.to === 'fees' ? FEE_ACCOUNT : effect.to;
      ledger.record([transferPosting({ from, to, asset: COLLATERAL, amount: effect.amount, kind: effect.why, ref: `oracle:${marketId}` })], ctx.atMs);
    }
  }
}
