import type { Level, Market, TradeActivity } from '../../client/index.ts';
import { units } from './format.ts';

/**
 * The market's one "current price", as Polymarket defines it: the midpoint of the best bid and
 * ask of outcome 1; when the spread is wider than 10¢ (a midpoint there says little), the last
 * trade's price. The headline, the outcome buttons, the chart's last point, the book's spread row
 * and the event page all show this number, so a trader never sees four different "prices".
 * Prices are base units (millionths); outcome 2's price is 1 minus outcome 1's.
 */
export const ONE = 1_000_000n;
export const WIDE_SPREAD = 100_000n;

export interface PriceInputs {
  bestBid: bigint | undefined;
  bestAsk: bigint | undefined;
  lastTrade: bigint | undefined;
}

/** Undefined when nothing says (no two-sided book, no trade): callers fall back to the API's `chance`. */
export function currentPrice({ bestBid, bestAsk, lastTrade }: PriceInputs): bigint | undefined {
  const midpoint = bestBid !== undefined && bestAsk !== undefined ? (bestBid + bestAsk) / 2n : undefined;
  if (midpoint !== undefined && bestAsk! - bestBid! <= WIDE_SPREAD) return midpoint;
  return lastTrade ?? midpoint;
}

/** A trade's price in outcome-1 terms (a trade of outcome 2 at q is outcome 1 at 1 − q). */
export function outcome1Price(trade: TradeActivity): bigint | undefined {
  const price = units(trade.price);
  return price === undefined ? undefined : trade.outcome === 'Side_B' ? ONE - price : price;
}

const best = (level: Level | undefined) => (level ? units(level.price) : undefined);

/**
 * The current price of `market`'s outcome 1 from its live book (`bid`, `ask`: outcome 1's best
 * levels) and its trades (newest first). A market whose last trade is not among them has it in
 * the API's `chance` (the last trade's price, 0.5 before any: `firstPriceDataAt` says which).
 */
export function livePrice(market: Market, bid: Level | undefined, ask: Level | undefined, trades: readonly TradeActivity[] = []): bigint {
  const last = trades.find((trade) => trade.marketId === market.id);
  const lastTrade = last ? outcome1Price(last) : market.firstPriceDataAt !== null ? units(market.chance) : undefined;
  return currentPrice({ bestBid: best(bid), bestAsk: best(ask), lastTrade }) ?? units(market.chance) ?? ONE / 2n;
}

/**
 * A held token's current price as its market's page shows it (outcome 2 there is 1 minus outcome
 * 1's), from the token's own live book and `latest`, the API's last trade price of the token
 * (EXTENSIONS.md section 11). Token 2's book mirrors token 1's, and prices sit on ticks of at least
 * 100 base units, so its midpoint is exactly 1 minus outcome 1's and the spread the same.
 */
export function heldPrice(bid: Level | undefined, ask: Level | undefined, latest: bigint): bigint {
  return currentPrice({ bestBid: best(bid), bestAsk: best(ask), lastTrade: latest }) ?? latest;
}

/** Markets beside their current prices (`priceOf`), likeliest first: how the event page and the home page's cards rank them. */
export function likeliestFirst<M>(markets: readonly M[], priceOf: (market: M) => bigint): { market: M; price: bigint }[] {
  return markets.map((market) => ({ market, price: priceOf(market) })).sort((a, b) => (b.price > a.price ? 1 : b.price < a.price ? -1 : 0));
}
