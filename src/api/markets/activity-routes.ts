import type { ActivityListQuery } from '../../market-data/activity.ts';
import type { ActivitySortKey } from '../../store/market-data-activity-repository.ts';
import type { AppContext } from '../context.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import { ActivityPageSchema, AllMarketsActivityQuery, MarketActivityQuery } from '../../contract/markets.ts';
import type { TypedApp } from '../typed-app.ts';

/** Sort columns by their SPEC.md names (`usersactivityview.*`) and short names. */
type SortName = 'usersactivityview.timestamp' | 'timestamp' | 'usersactivityview.amount' | 'amount';
const SORTS: Record<SortName, ActivitySortKey> = {
  'usersactivityview.timestamp': 'timestamp',
  timestamp: 'timestamp',
  'usersactivityview.amount': 'amount',
  amount: 'amount',
};

export const listQuery = (q: { page: number; limit: number; total: boolean; sortBy: SortName; order: 'ASC' | 'DESC'; cursor?: string | undefined }): ActivityListQuery => ({
  sort: SORTS[q.sortBy], order: q.order, page: q.page, limit: q.limit, total: q.total, cursor: q.cursor,
});

/** SPEC.md 4.2: market activity, every market's or one market's. */
export function registerActivityRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/activity', {
    config: { auth: 'public' },
    schema: {
      tags: ['markets'],
      summary: 'Activity of every market (offset mode: the first 1,000 rows; cursor mode beyond)',
      querystring: AllMarketsActivityQuery,
      response: { 200: ActivityPageSchema, ...errorResponses(400) },
    },
  }, async (request) => ctx.marketData.activity.all({ type: request.query.type, name: request.query.name }, listQuery(request.query)));

  api.get('/markets/activity/:marketId', {
    config: { auth: 'public' },
    schema: {
      tags: ['markets'],
      summary: "One market's activity: every party's trades, splits, merges and redeems",
      params: MarketIdParams,
      querystring: MarketActivityQuery,
      response: { 200: ActivityPageSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => {
    const { proxyAddress, type } = request.query;
    return ctx.marketData.activity.ofMarket(request.params.marketId, { proxyAddress, type }, listQuery(request.query), request.isAdmin);
  });
}
