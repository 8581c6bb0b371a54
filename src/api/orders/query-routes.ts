import { Type } from 'typebox';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { OrderIdParams, OrderListQuery, OrderPageQuery, OrderPaginationSchema, OrderWithMarketSchema } from '../../contract/orders.ts';
import type { TypedApp } from '../typed-app.ts';

const security = [{ apiKey: [] }];
/** Reading the caller's own orders (SPEC.md 4.4), API key HMAC only. */
export function registerOrderQueryRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/orders', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: "The caller's orders, every status but CANCELLED unless one is asked for (at most 1,000)",
      security,
      querystring: OrderListQuery,
      response: { 200: Type.Array(OrderWithMarketSchema), ...errorResponses(400, 401) },
    },
  }, async (request) => ctx.trading.orderQueries.list(requireCaller(request).userId, request.query));

  api.get('/orders/paginated', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: "The caller's orders by page or cursor; open orders (PENDING, EXECUTING) unless a status is asked for",
      security,
      querystring: OrderPageQuery,
      response: { 200: OrderPaginationSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { cursor, ...query } = request.query;
    return ctx.trading.orderQueries.paginated(requireCaller(request).userId, { ...query, cursor: cursor || undefined });
  });

  api.get('/orders/:id', {
    config: { auth: 'apiKey' },
    schema: { tags: ['orders'], summary: "One of the caller's orders", security, params: OrderIdParams, response: { 200: OrderWithMarketSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => ctx.trading.orderQueries.get(requireCaller(request).userId, request.params.id));
}
