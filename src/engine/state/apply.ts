import type { ApplyContext } from './apply-context.ts';
import { credit, merge, redeem, split, transfer, tokensOf, withdraw } from './balance-commands.ts';
import type { CommandOutcome, EngineCommand } from './commands.ts';
import type { EngineState } from './engine-state.ts';
import { RecordIds, type IdDerivation } from './ids.ts';
import { applyOracleCommand } from './oracle-commands.ts';
import { escrowOracleReward } from './oracle-escrow.ts';
import { cancelOrder, cancelUserOrders, expireAndRelease, placeOrder } from './order-commands.ts';
import { RecordEffects, type RecordChanges } from './record-effects.ts';
import { adoptSessions, armHeartbeat, changeSession, disarmHeartbeat, expireSafety, removeMmp, setMmp } from './safety-commands.ts';
import { settleRound } from './settlement-commands.ts';
import { applyChainFills, changeChainTx } from './chain-settlement-commands.ts';
import { applyChainTransfers, settleShortfalls } from './chain-transfer-commands.ts';

/** A journal record's content: its position, its time and its commands, in order. */
export interface RecordInput {
  seq: bigint;
  atMs: number;
  commands: readonly EngineCommand[];
  /** How the record derives its ids (`ids.ts`): `hashed` for records journaled before ids were ordered; ordered when absent. */
  ids?: IdDerivation;
  /** Set on records journaled before matches settled in parts (`match-parts.ts`): their matches stay whole. */
  wholeMatches?: true;
}

export interface AppliedRecord {
  input: RecordInput;
  /** Whether the record changed the state at all: a record that did not is not journaled. */
  changedState: boolean;
  outcomes: CommandOutcome[];
  effects: RecordEffects;
  changes: RecordChanges;
}

/**
 * Applies one record's commands to the state, in order, and seals what they changed. Pure but for
 * the state it mutates: the same state and record always give the same outcomes, changes and
 * state. A command that throws (a bug: the state's rules refused a change the command should never
 * have asked for) leaves the state part-way; the engine then rebuilds it from the journal, where
 * this record never arrives.
 */
export function applyRecord(state: EngineState, record: RecordInput): AppliedRecord {
  const effects = new RecordEffects(record.seq, record.atMs);
  const ctx: ApplyContext = {
    state,
    effects,
    ids: new RecordIds(record.seq, record.atMs, record.ids ?? 'ordered'),
    atMs: record.atMs,
    nowSec: Math.floor(record.atMs / 1000),
    taken: { hashes: new Set(), keys: new Map() },
    wholeMatches: record.wholeMatches === true,
  };
  state.balances.listen(effects.balanceTouched);
  state.ledger.listen(effects);
  const countersBefore = countersOf(state);
  try {
    const outcomes = record.commands.map((command) => applyCommand(ctx, command));
    const changes = effects.seal((account, asset) => state.balances.get(account, asset), (marketId) => {
      const book = state.runtimes.get(marketId)?.book;
      return book && [book.levels(0), book.levels(1)];
    });
    // A counter that moved is a change too: a record that moves one must be journaled, or a replay falls behind it.
    const changedState = effects.changedState || countersOf(state) !== countersBefore;
    return { input: record, outcomes, effects, changes, changedState };
  } finally {
    state.balances.listen(undefined);
    state.ledger.listen(undefined);
  }
}

function applyCommand(ctx: ApplyContext, command: EngineCommand): CommandOutcome {
  switch (command.kind) {
    case 'place':
      return placeOrder(ctx, command.order);
    case 'cancel':
      return cancelOrder(ctx, command.userId, command.orderId);
    case 'cancel-markets':
      return { ok: true, cancelled: cancelUserOrders(ctx, command.userId, new Set(command.marketIds)) };
    case 'tick':
      expireAndRelease(ctx);
      expireSafety(ctx);
      return { ok: true };
    case 'settle':
      return { ok: true, ...settleRound(ctx) };
    case 'market':
      putMarket(ctx, command.info);
      return { ok: true };
    case 'credit':
      return credit(ctx, command);
    case 'transfer':
      return transfer(ctx, { ...command, kind: command.why });
    case 'split':
      return split(ctx, command);
    case 'withdraw':
      return withdraw(ctx, command);
    case 'merge':
      return merge(ctx, command);
    case 'redeem':
      return redeem(ctx, command);
    case 'oracle':
      return applyOracleCommand(ctx, command.marketId, command.command, command.terms);
    case 'heartbeat':
      return armHeartbeat(ctx, command);
    case 'heartbeat-off':
      return disarmHeartbeat(ctx, command);
    case 'session':
      return changeSession(ctx, command);
    case 'sessions-adopted':
      return adoptSessions(ctx, command);
    case 'mmp-set':
      return setMmp(ctx, command);
    case 'mmp-remove':
      return removeMmp(ctx, command);
    case 'chain-tx':
      changeChainTx(ctx, command.change);
      return { ok: true };
    case 'chain-fills':
      applyChainFills(ctx, command.events);
      // A failed match returns its reservations, a mined one pays its seller: what a wallet owes the ledger may be debited now.
      settleShortfalls(ctx);
      return { ok: true };
    case 'chain-transfers':
      applyChainTransfers(ctx, command.toBlock, command.events);
      return { ok: true };
  }
}

/**
 * A market published or changed in the catalogue (pause, fees, tick size): orders from here on see
 * it. Its tokens are registered in the ledger, so splits work from its first moment. A market
 * the engine resolved stays resolved whatever the catalogue says meanwhile.
 */
function putMarket(ctx: ApplyContext, info: Parameters<EngineState['putMarket']>[0]): void {
  const known = ctx.state.markets.get(info.id);
  if (known?.status === 'RESOLVED') return;
  const added = !ctx.state.runtimes.has(info.id);
  const runtime = ctx.state.putMarket(info);
  ctx.state.ledger.register(tokensOf(info));
  if (!known && runtime) escrowOracleReward(ctx, info);
  ctx.effects.marketChanged(info.id, runtime !== undefined && added);
  // Its book as this record leaves it: what the publisher starts from.
  if (runtime) ctx.effects.touchedMarkets.add(info.id);
}

/** The state's sequence counters, as one comparable value. */
const countersOf = (state: EngineState): string => `${state.nextBookSeq} ${state.nextTradeSeq} ${state.ledger.nextSeq}`;
