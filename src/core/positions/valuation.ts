import { formatFixed, PRICE_ONE } from '../money.ts';
import { notional, type PositionState } from './position.ts';

/**
 * What a position is worth and what it made, at a token's latest price (EXTENSIONS.md section 11).
 * Prices are integer millionths, money bigint base units; every division rounds toward zero.
 */
export interface PositionValuation {
  /** Average acquisition price of the held tokens (of every acquired token once closed). */
  acquisitionPriceMicros: bigint;
  /** The held tokens at the latest price. */
  current: bigint;
  /**
   * amount × acquisitionPrice, rounded down like `current` (EXTENSIONS.md section 11), so a client
   * can recompute it from the two strings; it is below the exact cost basis by less than one base
   * unit per whole token (the acquisition price is rounded down to a millionth).
   */
  initial: bigint;
  /** current − initial, signed. */
  return: bigint;
}

/** A ratio of money to tokens as a price in millionths (0 when there are no tokens). */
export function averagePriceMicros(money: bigint, amount: bigint): bigint {
  return amount === 0n ? 0n : (money * PRICE_ONE) / amount;
}

export function valuePosition(state: PositionState, latestMicros: bigint): PositionValuation {
  const current = notional(latestMicros, state.amount);
  const acquisitionPriceMicros = state.amount > 0n
    ? averagePriceMicros(state.costBasis, state.amount)
    : averagePriceMicros(state.acquiredCost, state.acquiredAmount);
  const initial = notional(acquisitionPriceMicros, state.amount);
  return { acquisitionPriceMicros, current, initial, return: current - initial };
}

/** Realised plus unrealised P&L: what the position made so far if sold at the latest price. */
export function totalPnl(state: PositionState, latestMicros: bigint): bigint {
  return state.realizedPnl + notional(latestMicros, state.amount) - state.costBasis;
}

/** Percent of `part` over `whole`, as a JSON number with two decimals (0 when `whole` is 0). */
export function percentOf(part: bigint, whole: bigint): number {
  if (whole === 0n) return 0;
  return Number(formatFixed((part * 10_000n) / whole, 2));
}
