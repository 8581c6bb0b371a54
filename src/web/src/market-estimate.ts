import { ONE } from './price.ts';

/** A level of the live book in base units: price in millionths, size in share base units. */
export interface BookLevel {
  price: bigint;
  size: bigint;
}

/**
 * What a market order would do against the book as the page sees it now: a BUY spends up to a
 * dollar `budget` on the asks from the best up; a SELL sells `shares` into the bids from the best
 * down. The order is then sent as a fill-and-kill (or fill-or-kill) limit order of `shares` at
 * `worstPrice`, which fills these same levels when the book has not moved, and never worse.
 */
export interface MarketEstimate {
  /** Share base units, a multiple of the market's size step. */
  shares: bigint;
  /** Collateral paid (BUY) or received before fees (SELL), base units. */
  notional: bigint;
  /** Average fill price, millionths, rounded toward the trader's cost (up for a BUY, down for a SELL). */
  averagePrice: bigint;
  /** The last level reached: the order's limit price. */
  worstPrice: bigint;
  /** How far the average is from the best level, millionths (0 when it all fills at the best). */
  slippage: bigint;
  /** False when the book ran out before the budget or the shares did. */
  complete: boolean;
}

/**
 * `step`: the share base units an order size must be a multiple of (10^tick decimals, DESIGN.md
 * "Exact amounts"), so price × shares is whole base units and the estimate is exact.
 */
export function estimateBuy(asks: readonly BookLevel[], budget: bigint, step: bigint): MarketEstimate | undefined {
  let left = budget;
  let shares = 0n;
  let worstPrice = 0n;
  let bookRanOut = true;
  for (const level of asks) {
    const affordable = ((left * ONE) / level.price / step) * step;
    const take = affordable < level.size ? affordable : level.size;
    if (take > 0n) {
      shares += take;
      left -= (level.price * take) / ONE;
      worstPrice = level.price;
    }
    if (affordable < level.size) {
      bookRanOut = false;
      break;
    }
  }
  return summary(shares, budget - left, worstPrice, asks[0]?.price, 'BUY', !bookRanOut);
}

export function estimateSell(bids: readonly BookLevel[], wanted: bigint): MarketEstimate | undefined {
  let shares = 0n;
  let notional = 0n;
  let worstPrice = 0n;
  for (const level of bids) {
    const take = wanted - shares < level.size ? wanted - shares : level.size;
    if (take <= 0n) break;
    shares += take;
    notional += (level.price * take) / ONE;
    worstPrice = level.price;
  }
  return summary(shares, notional, worstPrice, bids[0]?.price, 'SELL', shares === wanted);
}

function summary(shares: bigint, notional: bigint, worstPrice: bigint, best: bigint | undefined, side: 'BUY' | 'SELL', complete: boolean): MarketEstimate | undefined {
  if (shares === 0n || best === undefined) return undefined;
  const averagePrice = side === 'BUY' ? (notional * ONE + shares - 1n) / shares : (notional * ONE) / shares;
  const slippage = side === 'BUY' ? averagePrice - best : best - averagePrice;
  return { shares, notional, averagePrice, worstPrice, slippage, complete };
}
