import { badRequest } from '../contract/errors.ts';
import { formatPrice, parsePrice } from '../core/prices.ts';
import type { PriceTargetRow } from '../store/price-targets-repository.ts';

/** `priceTargetConfig` of MarketInput (EXTENSIONS.md section 13), after schema validation (the pair's format included). */
export interface PriceTargetInput {
  targetType: 'CLOSE_PRICE' | 'FIXED';
  pair: string;
  source?: 'oracle' | 'manual' | undefined;
  targetPrice?: string | null | undefined;
  targetAt?: string | undefined;
  resolveAt?: string | undefined;
}

/** `priceTargetConfig` on Market: null on markets without one. */
export interface PriceTargetView {
  targetType: 'CLOSE_PRICE' | 'FIXED';
  pair: string;
  source: 'oracle' | 'manual';
  targetPrice: string | null;
  targetAt: string;
  resolveAt: string;
}

export function toPriceTargetView(row: PriceTargetRow): PriceTargetView {
  return {
    targetType: row.target_type,
    pair: row.pair,
    source: row.source,
    targetPrice: row.target_price === null ? null : formatPrice(row.target_price),
    targetAt: row.target_at.toISOString(),
    resolveAt: row.resolve_at.toISOString(),
  };
}

export function targetPriceUnits(text: string, what = 'targetPrice'): bigint {
  const units = parsePrice(text);
  if (units === undefined) throw badRequest(`${what} must be a positive decimal with at most 8 decimals`);
  return units;
}

/**
 * The stored row of a market's target. `targetAt` defaults to the market's start, `resolveAt` to
 * its end (a market without an end needs `resolveAt`). FIXED needs `targetPrice`; a CLOSE_PRICE
 * target from the feed is derived, so giving one is refused; a manual CLOSE_PRICE may carry it.
 */
export function priceTargetRow(marketId: string, input: PriceTargetInput, start: Date | null, end: Date | null, what: string): PriceTargetRow {
  const source = input.source ?? 'oracle';
  const given = input.targetPrice ?? null;
  if (input.targetType === 'FIXED' && given === null) throw badRequest(`${what}: a FIXED target needs targetPrice`);
  if (input.targetType === 'CLOSE_PRICE' && source === 'oracle' && given !== null) {
    throw badRequest(`${what}: a CLOSE_PRICE target from the oracle is derived from the feed; leave targetPrice out`);
  }
  const targetAt = input.targetAt ? new Date(input.targetAt) : start;
  const resolveAt = input.resolveAt ? new Date(input.resolveAt) : end;
  if (!targetAt) throw badRequest(`${what}: targetAt is needed when the market has no startDate`);
  if (!resolveAt) throw badRequest(`${what}: resolveAt is needed when the market has no endDate`);
  if (resolveAt.getTime() < targetAt.getTime()) throw badRequest(`${what}: resolveAt is before targetAt`);
  return {
    market_id: marketId,
    target_type: input.targetType,
    pair: input.pair,
    source,
    target_price: given === null ? null : targetPriceUnits(given),
    target_at: targetAt,
    resolve_at: resolveAt,
    final_at: null,
  };
}
