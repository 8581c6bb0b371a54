import { Type, type TSchema } from 'typebox';
import type { ActivityListQuery } from '../../market-data/activity.ts';
import type { ActivitySortKey } from '../../store/market-data-activity-repository.ts';
import type { AppContext } from '../context.ts';
import { Address, DateTime, errorResponses, Nullable, PageNumber, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

export const ActivitySchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  createdAt: DateTime,
  createdBy: Uuid,
  updatedAt: DateTime,
  startDate: DateTime,
  endDate: Nullable(DateTime),
  protected: Type.Boolean(),
  icon: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  conditionId: Type.String(),
  proxy_address: Type.String({ description: "the party's proxy wallet" }),
  outcome1: Type.String(),
  outcome2: Type.String(),
  type: Type.Union([Type.Literal('BUY'), Type.Literal('SELL'), Type.Literal('SPLIT'), Type.Literal('MERGE'), Type.Literal('REDEEM')]),
  timestamp: Type.Integer({ description: 'Unix seconds' }),
  hash: Type.String({ description: 'transaction hash of the trade settlement or the split, merge or redeem' }),
  amount: Type.Number({ description: 'outcome tokens, display units (a split or merge: the collateral moved)' }),
  parent_collection_id: Type.String(),
  partition: Type.Array(Type.Integer()),
  isResolved: Type.Boolean(),
  price: Type.String({ description: 'trade price; "1" for SPLIT and MERGE; payout per token for REDEEM' }),
  fee: Type.Number({ description: "the party's fee, USD" }),
  outcomeIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: 'BUY and SELL rows: 0 for tokenId1, 1 for tokenId2' })),
});

/** Pagination<Activity> of offset mode, for either Activity variant. */
export const activityOffsetPageSchema = <T extends TSchema>(row: T) => Type.Object({
  data: Type.Array(row),
  total: Nullable(Type.Integer({ description: 'with total=true: a bounded count' })),
  totalCapped: Type.Optional(Type.Boolean()),
  page: Type.Integer(),
  limit: Type.Integer(),
  hasMore: Type.Boolean(),
});

export const ActivityPageSchema = Type.Union([
  activityOffsetPageSchema(ActivitySchema),
  Type.Object({ data: Type.Array(ActivitySchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String()) }),
]);

/** Sort columns by their SPEC.md names (`usersactivityview.*`) and short names. */
type SortName = 'usersactivityview.timestamp' | 'timestamp' | 'usersactivityview.amount' | 'amount';
const SORTS: Record<SortName, ActivitySortKey> = {
  'usersactivityview.timestamp': 'timestamp',
  timestamp: 'timestamp',
  'usersactivityview.amount': 'amount',
  amount: 'amount',
};

/** The offset-mode query parameters of every activity route. */
export const offsetPaging = (limitDefault: number, totalDefault: boolean) => ({
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: limitDefault }),
  total: Type.Boolean({ default: totalDefault, description: 'count the matching rows (bounded; totalCapped flags the bound)' }),
  // The keys of SORTS, written out so the SDK's request type is a union of them.
  sortBy: Type.Union([Type.Literal('usersactivityview.timestamp'), Type.Literal('timestamp'), Type.Literal('usersactivityview.amount'), Type.Literal('amount')], { default: 'usersactivityview.timestamp' }),
  order: Type.Union([Type.Literal('ASC'), Type.Literal('DESC')], { default: 'DESC' }),
});

const paging = (limitDefault: number, totalDefault: boolean) => ({
  ...offsetPaging(limitDefault, totalDefault),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'keyset mode ({data, hasMore, nextCursor}); empty for the first page' })),
});

export const listQuery = (q: { page: number; limit: number; total: boolean; sortBy: SortName; order: 'ASC' | 'DESC'; cursor?: string | undefined }): ActivityListQuery => ({
  sort: SORTS[q.sortBy], order: q.order, page: q.page, limit: q.limit, total: q.total, cursor: q.cursor,
});

export const AllMarketsActivityQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('BUY'), Type.Literal('SELL')])),
  name: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  ...paging(5, false),
});

export const MarketActivityQuery = Type.Object({
  proxyAddress: Type.Optional(Address),
  type: Type.Optional(Type.Union([Type.Literal('SPLIT'), Type.Literal('MERGE'), Type.Literal('REDEEM')])),
  ...paging(10, true),
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
      params: Type.Object({ marketId: Uuid }),
      querystring: MarketActivityQuery,
      response: { 200: ActivityPageSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => {
    const { proxyAddress, type } = request.query;
    return ctx.marketData.activity.ofMarket(request.params.marketId, { proxyAddress, type }, listQuery(request.query), request.isAdmin);
  });
}
