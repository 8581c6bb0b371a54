import type { Db } from '../store/database.ts';
import { findPriceAtOrBefore, hasPriceAtOrAfter } from '../store/reference-prices-repository.ts';
import { findPriceTargets, setTargetPrice, type PriceTargetRow } from '../store/price-targets-repository.ts';

/**
 * "The price at T" for targets and resolution: the last price at or before T, once it is final,
 * that is once the pair has a price at or after T (until then a late answer of the feed, or the
 * operator's post for T itself, could still change it).
 */
export async function settledPriceAt(db: Db, pair: string, at: Date): Promise<bigint | undefined> {
  if (!(await hasPriceAtOrAfter(db, pair, at))) return undefined;
  return (await findPriceAtOrBefore(db, pair, at))?.price;
}

/** A CLOSE_PRICE target from the feed, unknown yet, whose time has come. */
export const needsDerivation = (row: PriceTargetRow, nowMs: number): boolean =>
  row.target_type === 'CLOSE_PRICE' && row.source === 'oracle' && row.target_price === null && row.target_at.getTime() <= nowMs;

/**
 * The targets of markets, CLOSE_PRICE ones derived (and kept, once) where the price at their
 * targetAt is now known. Another node deriving the same target at once is harmless: the update
 * only fills a null, and both read the same stored price.
 */
export async function targetsWithDerivation(db: Db, marketIds: string[], nowMs: number): Promise<Map<string, PriceTargetRow>> {
  const rows = await findPriceTargets(db, marketIds);
  for (const row of rows.values()) {
    if (!needsDerivation(row, nowMs)) continue;
    const price = await settledPriceAt(db, row.pair, row.target_at);
    if (price === undefined) continue;
    const kept = await setTargetPrice(db, row.market_id, price, true);
    rows.set(row.market_id, kept ?? (await findPriceTargets(db, [row.market_id])).get(row.market_id)!);
  }
  return rows;
}
