import { PRICE_ONE } from '../money.ts';

/**
 * One holder's position in one outcome token, folded from an ordered stream of position events.
 * Pure and exact: amounts and money are bigint base units (6 decimals), prices integer millionths.
 *
 * The model is average cost. What a holder paid for its tokens (fees included: a BUY's fee adds to
 * its cost, a SELL's fee comes out of its proceeds) is the position's cost basis; a disposal (SELL,
 * MERGE, REDEEM) removes the basis of the tokens it takes away, in proportion to the amount,
 * rounded down to a base unit, and the whole remaining basis when the position reaches zero. So
 * once a position is closed its realised P&L is exactly what it received minus what it paid, and
 * over a closed market every holder's P&L plus the fees sums to zero.
 */

export type PositionEvent =
  /** A fill that bought `amount` tokens at `priceMicros`, paying `feeBaseUnits` on top. */
  | { type: 'BUY'; amount: bigint; priceMicros: bigint; feeBaseUnits: bigint }
  /** A fill that sold `amount` tokens at `priceMicros`, the fee taken from the proceeds. */
  | { type: 'SELL'; amount: bigint; priceMicros: bigint; feeBaseUnits: bigint }
  /** `amount` collateral became `amount` of both tokens; this token's share of the cost. */
  | { type: 'SPLIT'; amount: bigint; outcomeIndex: 0 | 1 }
  /** `amount` of both tokens became `amount` collateral; this token's share of the proceeds. */
  | { type: 'MERGE'; amount: bigint; outcomeIndex: 0 | 1 }
  /** `amount` tokens burned at resolution for `proceeds` (this token's part of the payout). */
  | { type: 'REDEEM'; amount: bigint; proceeds: bigint };

export interface PositionState {
  /** Tokens held. */
  amount: bigint;
  /** What the held tokens cost (the `initial` value). */
  costBasis: bigint;
  /** Signed: proceeds of disposals minus the basis they removed. */
  realizedPnl: bigint;
  /** Every token ever acquired (buys, splits) and what they cost, for a closed position's entry price. */
  acquiredAmount: bigint;
  acquiredCost: bigint;
  /** Every token ever disposed of (sells, merges, redeems) and what they brought, for its exit price. */
  disposedAmount: bigint;
  disposedProceeds: bigint;
}

export const EMPTY_POSITION: PositionState = Object.freeze({
  amount: 0n, costBasis: 0n, realizedPnl: 0n, acquiredAmount: 0n, acquiredCost: 0n, disposedAmount: 0n, disposedProceeds: 0n,
});

export class PositionError extends Error {}

/**
 * This token's share of a complete set's collateral (a split's cost, a merge's proceeds): 0.5 per
 * token (EXTENSIONS.md section 11). An odd amount gives the extra base unit to outcome 0, so the two
 * shares always add up to the collateral moved.
 */
export function completeSetShare(amount: bigint, outcomeIndex: 0 | 1): bigint {
  const half = amount / 2n;
  return outcomeIndex === 0 ? amount - half : half;
}

/** What `amount` tokens at `priceMicros` cost: exact, since sizes sit on the tick grid. */
export function notional(priceMicros: bigint, amount: bigint): bigint {
  return (priceMicros * amount) / PRICE_ONE;
}

function acquire(state: PositionState, amount: bigint, cost: bigint): PositionState {
  return {
    ...state,
    amount: state.amount + amount,
    costBasis: state.costBasis + cost,
    acquiredAmount: state.acquiredAmount + amount,
    acquiredCost: state.acquiredCost + cost,
  };
}

function dispose(state: PositionState, amount: bigint, proceeds: bigint): PositionState {
  if (amount > state.amount) throw new PositionError(`disposing of ${amount} tokens with ${state.amount} held`);
  const removed = amount === state.amount ? state.costBasis : (state.costBasis * amount) / state.amount;
  return {
    ...state,
    amount: state.amount - amount,
    costBasis: state.costBasis - removed,
    realizedPnl: state.realizedPnl + proceeds - removed,
    disposedAmount: state.disposedAmount + amount,
    disposedProceeds: state.disposedProceeds + proceeds,
  };
}

/** The position after one more event. */
export function applyPositionEvent(state: PositionState, event: PositionEvent): PositionState {
  if (event.amount <= 0n) throw new PositionError('a position event moves a positive amount');
  switch (event.type) {
    case 'BUY': return acquire(state, event.amount, notional(event.priceMicros, event.amount) + event.feeBaseUnits);
    case 'SELL': return dispose(state, event.amount, notional(event.priceMicros, event.amount) - event.feeBaseUnits);
    case 'SPLIT': return acquire(state, event.amount, completeSetShare(event.amount, event.outcomeIndex));
    case 'MERGE': return dispose(state, event.amount, completeSetShare(event.amount, event.outcomeIndex));
    case 'REDEEM': return dispose(state, event.amount, event.proceeds);
  }
}

export function foldPosition(events: Iterable<PositionEvent>, from: PositionState = EMPTY_POSITION): PositionState {
  let state = from;
  for (const event of events) state = applyPositionEvent(state, event);
  return state;
}
