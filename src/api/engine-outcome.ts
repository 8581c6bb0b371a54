import { AppError, type ErrorCode } from '../contract/errors.ts';
import type { EngineFailure } from '../engine/state/apply-context.ts';

/** An engine command's outcome, or its refusal thrown as the error it names (INSUFFICIENT_BALANCE, CONFLICT, ...). */
export function engineOutcome<T extends { ok: true }>(outcome: T | EngineFailure): T {
  if (!outcome.ok) throw new AppError(outcome.code as ErrorCode, outcome.message);
  return outcome;
}
