import { followCursor, paginate } from '../paginate.ts';
import type {
  Activity, ActivityPage, AllMarketsActivityParams, Event, EventListParams, EventPage, EventPositions, EventReadParams, Market, MarketActivityParams, MarketHolders, MarketVolume,
} from '../types.ts';
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
    /** Positions of 1 to 50 users (their UUIDs) in the event's markets, each sorted by current value. */
    positions: (eventId: string, userIds: readonly string[]) => transport.call<EventPositions>('GET', `/events/${encodeURIComponent(eventId)}/positions`, { query: { users: userIds.join(',') } }),
  };
}

/** The keyset form of an activity page: what the routes answer when the call sends `cursor`. */
type ActivityCursorPage = Extract<ActivityPage, { nextCursor: string | null }>;

export function marketsSection({ transport }: ClientContext) {
  const activity = (params: AllMarketsActivityParams = {}) => transport.call<ActivityPage>('GET', '/markets/activity', { query: params });
  const activityOf = (marketId: string, params: MarketActivityParams = {}) => transport.call<ActivityPage>('GET', `/markets/activity/${encodeURIComponent(marketId)}`, { query: params });
  // Cursor mode starts with an empty cursor; offset mode stops at 1,000 rows, the cursor never does.
  const byCursor = (fetchPage: (cursor: string) => Promise<ActivityPage>) => followCursor<ActivityCursorPage, Activity>(
    async (cursor) => (await fetchPage(cursor ?? '')) as ActivityCursorPage,
  );
  return {
    list: (ids: readonly string[]) => transport.call<Market[]>('GET', '/markets', { query: { ids: ids.length ? [ids.join(',')] : undefined } }),
    get: (idOrSlug: string) => transport.call<Market>('GET', `/markets/${encodeURIComponent(idOrSlug)}`),
    volume: (marketId: string) => transport.call<MarketVolume>('GET', `/markets/${encodeURIComponent(marketId)}/volume`),
    /** Top holders of each outcome (`limit` per outcome, default 12). */
    holders: (idOrSlug: string, params: { limit?: number } = {}) => transport.call<MarketHolders>('GET', `/markets/${encodeURIComponent(idOrSlug)}/holders`, { query: params }),
    /** Trades of every market, one page (offset mode, or keyset mode when `cursor` is given). */
    activity,
    /** One market's trades, splits, merges and redeems, one page. */
    activityOf,
    /** Every row of every market's activity, newest first by default, through the keyset cursor. */
    allActivity: (params: Omit<AllMarketsActivityParams, 'cursor' | 'page' | 'total'> = {}) => byCursor((cursor) => activity({ ...params, cursor })),
    /** Every row of one market's activity, through the keyset cursor. */
    allActivityOf: (marketId: string, params: Omit<MarketActivityParams, 'cursor' | 'page' | 'total'> = {}) => byCursor((cursor) => activityOf(marketId, { ...params, cursor })),
    /** Collateral into the same amount of both outcome tokens; `amount` in display units ("12.5"). */
    split: (marketId: string, amount: string) => transport.call<{ txHash: string; amount: string }>('POST', `/markets/${encodeURIComponent(marketId)}/split`, { auth: 'apiKey', body: { amount } }),
  };
}
