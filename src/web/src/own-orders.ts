import type { Order } from '../../client/index.ts';
import { units } from './format.ts';
import { ONE } from './price.ts';

/**
 * Where the trader's resting orders sit in the book of `tokenId`, as `bid:<price>` or
 * `ask:<price>` (the price as the book prints it) → the shares still open there. One book
 * serves both tokens (DESIGN.md): in token A's view, a BUY of A at p is a bid at p and a SELL an
 * ask at p; a BUY of the other token at q is an ask at 1 − q, a SELL of it a bid at 1 − q.
 */
export function ownLevels(orders: readonly Order[], tokenId: string): Map<string, bigint> {
  const levels = new Map<string, bigint>();
  for (const order of orders) {
    const price = /^\d+$/.test(order.priceUint) ? BigInt(order.priceUint) : undefined;
    const open = (units(order.amount) ?? 0n) - (units(order.matchedAmount) ?? 0n);
    if (price === undefined || open <= 0n) continue;
    const same = order.tokenId === tokenId;
    const buy = order.side === 0;
    const key = levelKey(same === buy ? 'bid' : 'ask', same ? price : ONE - price);
    levels.set(key, (levels.get(key) ?? 0n) + open);
  }
  return levels;
}

/** The key of a book level in ownLevels' map. */
export const levelKey = (side: 'bid' | 'ask', priceBaseUnits: bigint) => `${side}:${priceBaseUnits}`;
