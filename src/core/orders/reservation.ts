/**
 * What an open order must keep locked (DESIGN.md "Balances are a ledger": open orders reserve
 * what they could spend). Prices are integer millionths of collateral per token, sizes bigint
 * token base units, fee rates basis points.
 */
import { feeBaseUnits } from '../book/fees.ts';
import { PRICE_ONE } from '../money.ts';

/** Collateral cost of `size` tokens at `priceMicros`; exact because sizes sit on the tick grid. */
export function costBaseUnits(priceMicros: number, sizeBaseUnits: bigint): bigint {
  return (BigInt(priceMicros) * sizeBaseUnits) / PRICE_ONE;
}

/**
 * The most fee a BUY limited at `limitMicros` can pay on `size`: it may fill at any price up to its
 * limit, as taker or (resting) as maker, and min(p, 1 − p) is largest at min(limit, 0.5).
 */
export function maxBuyFeeBaseUnits(limitMicros: number, sizeBaseUnits: bigint, takerBps: number, makerBps: number): bigint {
  const worstPrice = Math.min(limitMicros, 500_000);
  return feeBaseUnits(Math.max(takerBps, makerBps), worstPrice, sizeBaseUnits);
}

export interface ReservationTerms {
  side: 'BUY' | 'SELL';
  limitMicros: number;
  takerFeeBps: number;
  makerFeeBps: number;
}

/**
 * The amount an order with `remaining` unfilled tokens keeps locked: for a BUY, collateral for the
 * rest at its limit plus the most fee it could pay; for a SELL, the tokens themselves (its fee
 * comes out of its proceeds).
 */
export function reservationFor(terms: ReservationTerms, remainingBaseUnits: bigint): bigint {
  if (terms.side === 'SELL') return remainingBaseUnits;
  return costBaseUnits(terms.limitMicros, remainingBaseUnits) + maxBuyFeeBaseUnits(terms.limitMicros, remainingBaseUnits, terms.takerFeeBps, terms.makerFeeBps);
}

/**
 * Collateral a BUY frees when `fillSize` of it executes at `executionMicros` paying `fee`: what its
 * reservation shrinks by, less what the fill consumes. Never negative (proved in the tests).
 */
export function buyReleaseOnFill(terms: ReservationTerms, remainingBefore: bigint, fillSize: bigint, executionMicros: number, fee: bigint): bigint {
  const shrink = reservationFor(terms, remainingBefore) - reservationFor(terms, remainingBefore - fillSize);
  return shrink - costBaseUnits(executionMicros, fillSize) - fee;
}
