import { complementPrice, PRICE_ONE } from '../core/money.ts';
import type { LatestPriceSource } from './event-positions.ts';
import type { Db } from '../store/database.ts';
import { latestTrades } from '../store/positions-repository.ts';

const HALF = PRICE_ONE / 2n;

export interface PricedToken {
  marketId: string;
  tokenId: string;
  outcomeIndex: 0 | 1;
  /** The market's resolution ("" until resolved): a resolved token is worth what it redeems for. */
  resolvedTo: string;
}

/**
 * The latest price of each token, in millionths (EXTENSIONS.md section 11): its last trade price,
 * before its first trade the midpoint of its book, with neither 0.5. A resolved market's token is
 * priced at what it pays (1 or 0, 0.5 on a TIE) since that is what the holder gets for it. The
 * engine's memory answers first; tokens it has no last trade of are looked up in the trades
 * table, one query for all of them.
 */
export async function latestPricesMicros(db: Db, engine: LatestPriceSource, tokens: PricedToken[]): Promise<Map<string, bigint>> {
  const prices = new Map<string, bigint>();
  const missing: PricedToken[] = [];
  for (const t of tokens) {
    const settled = resolvedPrice(t);
    const known = settled ?? engine.lastTradeMicros(t.tokenId);
    if (known === undefined) missing.push(t);
    else prices.set(t.tokenId, known);
  }
  if (missing.length === 0) return prices;
  const trades = new Map((await latestTrades(db, [...new Set(missing.map((t) => t.marketId))])).map((t) => [t.marketId, t]));
  for (const t of missing) {
    const trade = trades.get(t.marketId);
    const traded = trade && (trade.tokenId === t.tokenId ? trade.priceMicros : complementPrice(trade.priceMicros));
    prices.set(t.tokenId, traded ?? engine.midpointMicros(t.tokenId) ?? HALF);
  }
  return prices;
}

function resolvedPrice(t: PricedToken): bigint | undefined {
  if (t.resolvedTo === 'TIE') return HALF;
  if (t.resolvedTo === 'YES') return t.outcomeIndex === 0 ? PRICE_ONE : 0n;
  if (t.resolvedTo === 'NO') return t.outcomeIndex === 1 ? PRICE_ONE : 0n;
  return undefined;
}
