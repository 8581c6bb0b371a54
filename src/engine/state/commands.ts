import type { OracleCommand } from '../../core/oracle/state-machine.ts';
import type { RedeemRounding } from '../../settlement/embedded/postings.ts';
import type { CreditReason } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import type { CreditOutcome, MergeOutcome, RedeemOutcome, SplitOutcome, TransferOutcome, WithdrawOutcome } from './balance-commands.ts';
import type { EngineFailure } from './apply-context.ts';
import type { CatalogueTerms, OracleCommandOutcome } from './oracle-commands.ts';
import type { MmpScope, MmpSetting } from './maker-safety.ts';
import type { CancelOutcome, PlaceOutcome } from './order-commands.ts';
import type { ChainFillEvent, ChainTxChange } from './chain-settlement-commands.ts';
import type { ChainIndexEvent } from './chain-transfer-commands.ts';
import type { MmpSettingInput } from './safety-commands.ts';
import type { EngineOrder, NewOrder } from './types.ts';

/**
 * Every state change of the exchange's engine, as a command of the journal (DESIGN.md "One journal
 * is the truth"). A command carries everything its effect depends on besides the state and the
 * record's time, so replaying the journal gives the same state: the orders and balance moves of
 * the API, the markets the catalogue publishes and changes, the oracle's transitions (with the
 * catalogue's terms of the question), and the engine's own chores (expiry and speed bumps,
 * settlement rounds, or a real chain's transactions and what it did with them), and market makers' safety (heartbeats, cancel-on-disconnect sessions and
 * MMP settings, whose deadlines the tick acts on).
 */
export type EngineCommand =
  | { kind: 'place'; order: NewOrder }
  | { kind: 'cancel'; userId: string; orderId: string }
  | { kind: 'cancel-markets'; userId: string; marketIds: string[] }
  | { kind: 'tick' }
  | { kind: 'settle' }
  | { kind: 'market'; info: MarketTradingInfo }
  /** `idempotencyKey`: the credit is made once per key (admin credits: a retry after an unclear answer credits nothing more). */
  | { kind: 'credit'; account: string; amount: bigint; reason: CreditReason; ref: string; idempotencyKey?: string }
  | { kind: 'transfer'; from: string; to: string; asset: string; amount: bigint; why: string; ref: string; once: boolean }
  /** `chainTxHash` on split, merge and redeem: the wallet's transaction when a chain moved the tokens first (src/conditional-tokens/). */
  | { kind: 'split'; account: string; marketId: string; amount: bigint; chainTxHash?: string }
  /** Collateral leaving the exchange to `to` on the owner's signature of (to, amount, nonce); each nonce once per account. */
  /** `toAccount`: the ledger account of `to` when it is a user's wallet; the collateral moves there rather than out. */
  | { kind: 'withdraw'; account: string; to: string; amount: bigint; nonce: bigint; toAccount?: string }
  /** `amounts`, one per market, when a chain merged them first (balance-commands.ts); else what is available. */
  | { kind: 'merge'; account: string; marketIds: string[]; amounts?: bigint[]; chainTxHash?: string }
  /** `rounding` `sum` only on redeems of records before version 3 (journal/record-codec.ts, postings.ts RedeemRounding); new ones round per token. */
  | { kind: 'redeem'; userId: string; account: string; marketIds: string[]; chainTxHash?: string; rounding?: RedeemRounding }
  | { kind: 'oracle'; marketId: string; command: OracleCommand; terms: CatalogueTerms }
  | { kind: 'heartbeat'; apiKey: string; timeoutMs: number }
  | { kind: 'heartbeat-off'; apiKey: string }
  /** A cancel-on-disconnect socket opened (`resumes`: the dropped socket it reconnects) or closed. */
  /** `node`: the node holding the socket (null in records before sockets named it). */
  | { kind: 'session'; apiKey: string; change: 'open' | 'close'; sessionId: string; resumes: string | null; node: string | null }
  /** A node took the engine, or one left: sockets of nodes not `present` count as dropped, the others must be named again (safety-commands.ts). */
  | { kind: 'sessions-adopted'; present: string[] }
  | { kind: 'mmp-set'; setting: MmpSettingInput }
  | { kind: 'mmp-remove'; apiKey: string; scope: MmpScope }
  /** A settlement sender's write-ahead record of a transaction, put before it is broadcast (CHAIN≠none). */
  | { kind: 'chain-tx'; change: ChainTxChange }
  /** What the chain did with matches: mined, confirmed, reorged back to MATCHED, failed. */
  | { kind: 'chain-fills'; events: ChainFillEvent[] }
  /**
   * Value moved on chain behind the exchange's back, and approvals of users' wallets given or
   * revoked, in the blocks up to `toBlock`, in chain order (the indexer's cursor moves with it).
   */
  | { kind: 'chain-transfers'; toBlock: number; events: ChainIndexEvent[] };

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
  withdraw: WithdrawOutcome;
  merge: MergeOutcome | EngineFailure;
  redeem: RedeemOutcome;
  oracle: OracleCommandOutcome;
  heartbeat: { ok: true; expiresAtMs: number };
  'heartbeat-off': { ok: true; disarmed: boolean };
  session: { ok: true };
  'sessions-adopted': { ok: true };
  'mmp-set': { ok: true; setting: MmpSetting } | EngineFailure;
  'mmp-remove': { ok: true; removed: boolean };
  'chain-tx': { ok: true };
  'chain-fills': { ok: true };
  'chain-transfers': { ok: true };
}

export type CommandOf<K extends EngineCommand['kind']> = Extract<EngineCommand, { kind: K }>;
/** A command's fields without its kind: what the engine's method of that command takes. */
export type CommandFields<K extends EngineCommand['kind']> = Omit<CommandOf<K>, 'kind'>;
export type OutcomeOf<C extends EngineCommand> = CommandOutcomes[C['kind']];
export type CommandOutcome = CommandOutcomes[EngineCommand['kind']];
