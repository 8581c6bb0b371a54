import { formatUnits, parseUnits } from 'viem';

/** Collateral and outcome tokens both have 6 decimals; display strings exist only at the API edge. */
export const DECIMALS = 6;

/** A non-negative decimal with at most 6 decimals ("12.5", "0.000001"): never rounded. */
export const DISPLAY_AMOUNT_PATTERN = '^[0-9]{1,40}(\\.[0-9]{1,6})?$';
const DISPLAY_AMOUNT = new RegExp(DISPLAY_AMOUNT_PATTERN);

/** Base units of a display amount, or null when the text is not one (exactly, with ≤ 6 decimals). */
export function parseDisplayAmount(text: string): bigint | null {
  return DISPLAY_AMOUNT.test(text) ? parseUnits(text, DECIMALS) : null;
}

/** The display string of base units: 12500000n → "12.5". */
export const formatDisplayAmount = (baseUnits: bigint): string => formatUnits(baseUnits, DECIMALS);
