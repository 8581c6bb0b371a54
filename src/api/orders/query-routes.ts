import { Type } from 'typebox';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { Address, errorResponses, PageNumber, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { OrderPaginationSchema, OrderWithMarketSchema } from './schemas.ts';

const security = [{ apiKey: [] }];
const literals = <T extends string>(values: readonly T[], options: { default?: T; description?: string } = {}) =>
  Type.Union(values.map((v) => Type.Literal(v)), options);

const listFilters = {
  market: Type.Optional(Uuid),
  maker: Type.Optional(Address),
  marketName: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  sortBy: literals(['created_at', 'total', 'amount', 'filled'] as const, { default: 'created_at' }),
  order: literals(['ASC', 'DESC'] as const, { default: 'DESC' }),
};
const ListQuery = Type.Object({
  ...listFilters,
  status: Type.Optional(literals(['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'] as const, { description: 'CANCELLED is 400 here; use /orders/paginated' })),
});
const PaginatedQuery = Type.Object({
  ...listFilters,
  status: Type.Optional(literals(['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'] as const)),
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 30 }),
  total: Type.Boolean({ default: false }),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'opaque; from nextCursor; only with the default created_at sort' })),
});

/** Reading the caller's own orders (SPEC.md 4.4), API key HMAC only. */
export function registerOrderQueryRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/orders', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: "The caller's orders, every status but CANCELLED unless one is asked for (at most 1,000)",
      security,
      querystring: ListQuery,
      response: { 200: Type.Array(OrderWithMarketSchema), ...errorResponses(400, 401) },
    },
  }, async (request) => ctx.trading.orderQueries.list(requireCaller(request).userId, request.query));

  api.get('/orders/paginated', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: "The caller's orders by page or cursor; open orders (PENDING, EXECUTING) unless a status is asked for",
      security,
      querystring: PaginatedQuery,
      response: { 200: OrderPaginationSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { cursor, ...query } = request.query;
    return ctx.trading.orderQueries.paginated(requireCaller(request).userId, { ...query, cursor: cursor || undefined });
  });

  api.get('/orders/:id', {
    config: { auth: 'apiKey' },
    schema: { tags: ['orders'], summary: "One of the caller's orders", security, params: Type.Object({ id: Uuid }), response: { 200: OrderWithMarketSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => ctx.trading.orderQueries.get(requireCaller(request).userId, request.params.id));
}
