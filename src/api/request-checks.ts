import { parseUnits } from '../core/money.ts';
import { badRequest } from '../contract/errors.ts';

/** Base units of an amount that moves something: zero is a 400 VALIDATION_FAILED. */
export function positiveAmount(text: string, field = 'amount'): bigint {
  const amount = parseUnits(text);
  if (amount === undefined || amount === 0n) throw badRequest(`${field} must be a positive decimal with at most 6 decimals`);
  return amount;
}

/** The rules the batch schema cannot hold: at most POSITION_BATCH_MAX ids, each once (case-insensitively). */
export function checkPositionBatch(marketIds: string[], batchMax: number): void {
  if (marketIds.length > batchMax) throw badRequest(`marketIds: at most ${batchMax} markets per batch`);
  if (new Set(marketIds.map((id) => id.toLowerCase())).size !== marketIds.length) throw badRequest('marketIds must be unique');
}
