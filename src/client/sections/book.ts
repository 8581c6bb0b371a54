import { paginate } from '../paginate.ts';
import type { LastTradePrice, OrderBook, PriceHistory, PriceHistoryParams } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Public prices (SPEC.md 4.5). */
export function bookSection({ transport }: ClientContext) {
  const history = (params: PriceHistoryParams) => transport.call<PriceHistory>('GET', '/price-history', { query: params });
  return {
    get: (tokenId: string) => transport.call<OrderBook>('GET', '/order-book/book', { query: { token_id: tokenId } }),
    lastTradePrice: (tokenId: string) => transport.call<LastTradePrice>('GET', '/order-book/last-trade-price', { query: { token_id: tokenId } }),
    /** One page of a token's price per `fidelity`-minute bucket over `interval`. */
    history,
    /** Every point of the history, page after page. */
    allHistory: (params: Omit<PriceHistoryParams, 'page'>) => paginate((page) => history({ ...params, page }), (result) => result.data, (result) => result.data.length === result.limit),
  };
}
