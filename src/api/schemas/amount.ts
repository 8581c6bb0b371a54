import { Type } from 'typebox';
import { DISPLAY_AMOUNT_PATTERN, parseUnits } from '../../core/money.ts';
import { badRequest } from '../../contract/errors.ts';

/** A request amount in display units (EXTENSIONS.md: ≤ 6 decimals, not negative, never rounded). */
export const DisplayAmount = Type.String({ pattern: DISPLAY_AMOUNT_PATTERN, description: 'decimal string in display units, at most 6 decimals', examples: ['12.5'] });

/** A response amount in display units. */
export const DisplayAmountOut = Type.String({ description: 'decimal string in display units' });

/** Base units of an amount that moves something: zero is a 400 VALIDATION_FAILED. */
export function positiveAmount(text: string, field = 'amount'): bigint {
  const amount = parseUnits(text);
  if (amount === undefined || amount === 0n) throw badRequest(`${field} must be a positive decimal with at most 6 decimals`);
  return amount;
}
