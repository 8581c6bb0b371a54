import type { IncomingOrder } from '../../src/core/book/types.ts';

/** Shared builders of the order-book tests. One token = 1_000_000 base units; a 0.01 tick means sizes step by 10_000. */
export const TOKEN = 1_000_000n;
export const NOW = 1_764_000_000;

let counter = 0;

/** A GTC order of `tokens` whole tokens; id and owner default to fresh values. */
export function order(fields: Partial<IncomingOrder> & Pick<IncomingOrder, 'outcome' | 'side' | 'priceMicros'> & { tokens?: number }): IncomingOrder {
  counter += 1;
  const { tokens = 1, ...rest } = fields;
  return {
    id: `o${counter}`,
    ownerId: `u${counter}`,
    sizeBaseUnits: BigInt(tokens) * TOKEN,
    type: 'GTC',
    postOnly: false,
    expirationSec: 0,
    takerFeeBps: 0,
    makerFeeBps: 0,
    ...rest,
  };
}

export const buy = (outcome: 0 | 1, priceMicros: number, more: Partial<IncomingOrder> & { tokens?: number } = {}) => order({ outcome, side: 'BUY', priceMicros, ...more });
export const sell = (outcome: 0 | 1, priceMicros: number, more: Partial<IncomingOrder> & { tokens?: number } = {}) => order({ outcome, side: 'SELL', priceMicros, ...more });
