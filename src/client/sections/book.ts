import type { LastTradePrice, OrderBook } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Public prices (SPEC.md 4.5). */
export function bookSection({ transport }: ClientContext) {
  return {
    get: (tokenId: string) => transport.call<OrderBook>('GET', '/order-book/book', { query: { token_id: tokenId } }),
    lastTradePrice: (tokenId: string) => transport.call<LastTradePrice>('GET', '/order-book/last-trade-price', { query: { token_id: tokenId } }),
  };
}
