import { Type } from 'typebox';
import { DISPLAY_AMOUNT_PATTERN } from './formats.ts';

/** A request amount in display units (EXTENSIONS.md: ≤ 6 decimals, not negative, never rounded). */
export const DisplayAmount = Type.String({ pattern: DISPLAY_AMOUNT_PATTERN, description: 'decimal string in display units, at most 6 decimals', examples: ['12.5'] });

/** A response amount in display units. */
export const DisplayAmountOut = Type.String({ description: 'decimal string in display units' });

/** A body that moves an amount: split, faucet, treasury deposit. */
export const AmountBody = Type.Object({ amount: DisplayAmount });
