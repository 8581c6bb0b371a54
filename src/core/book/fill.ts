import { complementPrice, PRICE_ONE } from '../money.ts';
import { feeBaseUnits } from './fees.ts';
import type { BookEntry } from './price-level.ts';
import type { Fill, FillKind, IncomingOrder } from './types.ts';

/** An order's price translated into the book's terms (outcome 0's token), or back: the map is its own inverse. */
export const toBookPrice = (outcome: 0 | 1, priceMicros: number): number => (outcome === 0 ? priceMicros : complementPrice(priceMicros));

/** Whether the order sits on the bid side of the one book: BUY outcome 0 or SELL outcome 1. */
export const isBookBid = (order: { outcome: 0 | 1; side: 'BUY' | 'SELL' }): boolean => (order.side === 'BUY') === (order.outcome === 0);

/**
 * The fill of `size` between a taker and a resting maker, at the maker's price. Parties on
 * opposite sides of the book trade the same token on opposite sides (TRANSFER) or different
 * tokens on the same side: two buys mint a complete set, two sells merge one.
 */
export function makeFill(taker: IncomingOrder, maker: BookEntry, sizeBaseUnits: bigint): Fill {
  const kind: FillKind = maker.outcome === taker.outcome ? 'TRANSFER' : taker.side === 'BUY' ? 'MINT' : 'MERGE';
  const takerPrice = toBookPrice(taker.outcome, maker.bookPriceMicros);
  assertWholeCollateral(takerPrice, sizeBaseUnits);
  return {
    kind,
    sizeBaseUnits,
    maker: {
      orderId: maker.id,
      ownerId: maker.ownerId,
      outcome: maker.outcome,
      side: maker.side,
      priceMicros: maker.priceMicros,
      feeBaseUnits: feeBaseUnits(maker.makerFeeBps, maker.priceMicros, sizeBaseUnits),
    },
    taker: {
      orderId: taker.id,
      ownerId: taker.ownerId,
      outcome: taker.outcome,
      side: taker.side,
      priceMicros: takerPrice,
      feeBaseUnits: feeBaseUnits(taker.takerFeeBps, takerPrice, sizeBaseUnits),
    },
  };
}

/**
 * Sizes sit on the tick grid, so price × size is whole base units of collateral, for p and for
 * 1 − p alike; a remainder means an order reached the book off the grid, and settling it would
 * create or destroy collateral.
 */
function assertWholeCollateral(priceMicros: number, sizeBaseUnits: bigint): void {
  if ((BigInt(priceMicros) * sizeBaseUnits) % PRICE_ONE !== 0n) {
    throw new Error(`fill of ${sizeBaseUnits} base units at ${priceMicros} micros is not a whole amount of collateral: size is off the tick grid`);
  }
}
