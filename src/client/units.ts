/**
 * Display decimals ↔ bigint base units (6 decimals) for callers that do arithmetic on amounts:
 * the API speaks exact decimal strings, and these convert without a float.
 */
export { formatUnits, parseUnits } from '../core/money.ts';
