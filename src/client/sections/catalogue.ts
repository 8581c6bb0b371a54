import { paginate } from '../paginate.ts';
import type { Event, EventListParams, EventPage, EventReadParams, Market, MarketVolume } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Public catalogue reads (SPEC.md 4.1 and 4.2). */
export function eventsSection({ transport }: ClientContext) {
  const list = (params: EventListParams = {}) => transport.call<EventPage>('GET', '/events', { query: params });
  return {
    list,
    /** Every matching event, page after page. */
    all: (params: Omit<EventListParams, 'page'> = {}) => paginate((page) => list({ ...params, page }), (result) => result.data, (result) => result.data.length === result.limit),
    get: (idOrSlug: string, params: EventReadParams = {}) => transport.call<Event>('GET', `/events/${encodeURIComponent(idOrSlug)}`, { query: params }),
    volume: (idOrSlug: string) => transport.call<number>('GET', `/events/${encodeURIComponent(idOrSlug)}/volume`),
  };
}

export function marketsSection({ transport }: ClientContext) {
  return {
    list: (ids: readonly string[]) => transport.call<Market[]>('GET', '/markets', { query: { ids: ids.length ? [ids.join(',')] : undefined } }),
    get: (idOrSlug: string) => transport.call<Market>('GET', `/markets/${encodeURIComponent(idOrSlug)}`),
    volume: (marketId: string) => transport.call<MarketVolume>('GET', `/markets/${encodeURIComponent(marketId)}/volume`),
    /** Collateral into the same amount of both outcome tokens; `amount` in display units ("12.5"). */
    split: (marketId: string, amount: string) => transport.call<{ txHash: string; amount: string }>('POST', `/markets/${encodeURIComponent(marketId)}/split`, { auth: 'apiKey', body: { amount } }),
  };
}
