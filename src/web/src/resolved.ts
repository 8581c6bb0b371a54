import type { Market } from '../../client/index.ts';
import { ONE } from './price.ts';

/** How a resolved market ended, in its own outcome names, and what outcome 1 pays a share. */
export interface Resolved {
  /** "Yes", "No", or "Tie". */
  label: string;
  /** What a share of outcome 1 redeems for, in base units (outcome 2: ONE minus it). */
  payout1: bigint;
}

/** Undefined while the market trades (EXTENSIONS.md section 11: `marketResolvedTo` YES, NO or TIE once resolved). */
export function resolvedOf(market: Market): Resolved | undefined {
  if (market.status !== 'RESOLVED') return undefined;
  if (market.marketResolvedTo === 'YES') return { label: market.outcome1, payout1: ONE };
  if (market.marketResolvedTo === 'NO') return { label: market.outcome2, payout1: 0n };
  return { label: 'Tie', payout1: ONE / 2n };
}
