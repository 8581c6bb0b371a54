import type { Db } from '../store/database.ts';
import type { EngineOrder } from './engine-order.ts';
import type { CancelOutcome, RetireWork } from './order-commands.ts';
import type { PlaceOrderOutcome, PlaceOrderRequest } from './types.ts';

/** What goes through the engine's queue: order commands, work that moves balances, and the engine's own chores. */
export type Command =
  | { kind: 'place'; request: PlaceOrderRequest }
  | { kind: 'cancel'; userId: string; orderId: string }
  | { kind: 'cancel-markets'; userId: string; marketIds: string[] }
  | { kind: 'retire'; work: RetireWork<unknown> }
  | { kind: 'ledger'; work: (tx: Db) => Promise<unknown> }
  | { kind: 'tick' }
  | { kind: 'settle' }
  | { kind: 'project' };

export type CommandResult = PlaceOrderOutcome | CancelOutcome | { ok: true; cancelled: EngineOrder[] } | { ok: true } | WorkOutcome;

/** What work run inside a batch gave: its result, or the error it threw (its changes rolled back). */
export type WorkOutcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** Commands whose work moves balances in SQL: the batch's reservations are written before them and read again after. */
export const movesBalancesInSql = (command: Command) => command.kind === 'settle' || command.kind === 'ledger' || command.kind === 'retire';

/**
 * Commands that need the tables to hold every journal record first: those that move balances in
 * SQL read and write the tables directly, and `project` is a reader's request for them.
 */
export const needsProjection = (command: Command) => movesBalancesInSql(command) || command.kind === 'project';

/** The work's result to its caller, or the error it threw. */
export function resultOf<T>(outcome: WorkOutcome): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.result as T;
}
