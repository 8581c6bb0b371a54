import type { ReferencePrice } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Reference prices of price-target markets (EXTENSIONS.md section 13); public. */
export function pricesSection({ transport }: ClientContext) {
  return {
    /** The last price of `pair` (e.g. "BTC/USD") at or before `at` (default now); 404 when none. */
    reference: (pair: string, at?: string) => transport.call<ReferencePrice>('GET', '/prices/reference', { query: { pair, ...(at === undefined ? {} : { at }) } }),
  };
}
