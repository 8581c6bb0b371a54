import type { OracleCommand } from '../../core/oracle/state-machine.ts';
import type { CreditReason } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import type { CreditOutcome, MergeOutcome, RedeemOutcome, SplitOutcome, TransferOutcome } from './balance-commands.ts';
import type { EngineFailure } from './apply-context.ts';
import type { CatalogueTerms, OracleCommandOutcome } from './oracle-commands.ts';
import type { MmpScope, MmpSetting } from './maker-safety.ts';
import type { CancelOutcome, PlaceOutcome } from './order-commands.ts';
import type { MmpSettingInput } from './safety-commands.ts';
import type { EngineOrder, NewOrder } from './types.ts';

/**
 * Every state change of the exchange's engine, as a command of the journal (DESIGN.md "One journal
 * is the truth"). A command carries everything its effect depends on besides the state and the
 * record's time, so replaying the journal gives the same state: the orders and balance moves of
 * the API, the markets the catalogue publishes and changes, the oracle's transitions (with the
 * catalogue's terms of the question), and the engine's own chores (expiry and speed bumps,
 * settlement rounds), and market makers' safety (heartbeats, cancel-on-disconnect sessions and
 * MMP settings, whose deadlines the tick acts on).
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
  | { kind: 'oracle'; marketId: string; command: OracleCommand; terms: CatalogueTerms }
  | { kind: 'heartbeat'; apiKey: string; timeoutMs: number }
  | { kind: 'heartbeat-off'; apiKey: string }
  /** A cancel-on-disconnect socket opened (`resumes`: the dropped socket it reconnects) or closed. */
  | { kind: 'session'; apiKey: string; change: 'open' | 'close'; sessionId: string; resumes: string | null }
  /** A node took the engine: every socket recorded counts as dropped (safety-commands.ts). */
  | { kind: 'sessions-adopted' }
  | { kind: 'mmp-set'; setting: MmpSettingInput }
  | { kind: 'mmp-remove'; apiKey: string; scope: MmpScope };

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
  heartbeat: { ok: true; expiresAtMs: number };
  'heartbeat-off': { ok: true; disarmed: boolean };
  session: { ok: true };
  'sessions-adopted': { ok: true };
  'mmp-set': { ok: true; setting: MmpSetting } | EngineFailure;
  'mmp-remove': { ok: true; removed: boolean };
}

export type CommandOf<K extends EngineCommand['kind']> = Extract<EngineCommand, { kind: K }>;
export type OutcomeOf<C extends EngineCommand> = CommandOutcomes[C['kind']];
export type CommandOutcome = CommandOutcomes[EngineCommand['kind']];
