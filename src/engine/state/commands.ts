import type { OracleCommand } from '../../core/oracle/state-machine.ts';
import type { CreditReason } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import type { CreditOutcome, MergeOutcome, RedeemOutcome, SplitOutcome, TransferOutcome } from './balance-commands.ts';
import type { CatalogueTerms, OracleCommandOutcome } from './oracle-commands.ts';
import type { CancelOutcome, PlaceOutcome } from './order-commands.ts';
import type { EngineOrder, NewOrder } from './types.ts';

/**
 * Every state change of the exchange's engine, as a command of the journal (DESIGN.md "One journal
 * is the truth"). A command carries everything its effect depends on besides the state and the
 * record's time, so replaying the journal gives the same state: the orders and balance moves of
 * the API, the markets the catalogue publishes and changes, the oracle's transitions (with the
 * catalogue's terms of the question), and the engine's own chores (expiry and speed bumps,
 * settlement rounds).
 */
export type EngineCommand =
  | { kind: 'place'; order: NewOrder }
  | { kind: 'cancel'; userId: string; orderId: string }
  | { kind: 'cancel-markets'; userId: string; marketIds: string[] }
  | { kind: 'tick' }
  | { kind: 'settle' }
  | { kind: 'market'; info: MarketTradingInfo }
  | { kind: 'credit'; account: string; amount: bigint; reason: CreditReason; ref: string }
  | { kind: 'transfer'; from: string; to: string; asset: string; amount: bigint; why: string; ref: string; once: boolean }
  | { kind: 'split'; account: string; marketId: string; amount: bigint }
  | { kind: 'merge'; account: string; marketIds: string[] }
  | { kind: 'redeem'; userId: string; account: string; marketIds: string[] }
  | { kind: 'oracle'; marketId: string; command: OracleCommand; terms: CatalogueTerms };

export interface CommandOutcomes {
  place: PlaceOutcome;
  cancel: CancelOutcome;
  'cancel-markets': { ok: true; cancelled: EngineOrder[] };
  tick: { ok: true };
  settle: { ok: true; moreWork: boolean };
  market: { ok: true };
  credit: CreditOutcome;
  transfer: TransferOutcome;
  split: SplitOutcome;
  merge: MergeOutcome;
  redeem: RedeemOutcome;
  oracle: OracleCommandOutcome;
}

export type CommandOf<K extends EngineCommand['kind']> = Extract<EngineCommand, { kind: K }>;
export type OutcomeOf<C extends EngineCommand> = CommandOutcomes[C['kind']];
export type CommandOutcome = CommandOutcomes[EngineCommand['kind']];
