import { requireCaller } from '../auth/caller.ts';
import { parseIds } from '../catalogue/market-routes.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { PositionsQuery, UserPositionsResponseSchema, UserPositionValueSchema, ValueQuery } from '../../contract/portfolio.ts';
import type { TypedApp } from '../typed-app.ts';

const security = [{ apiKey: [] }];

/** SPEC.md 4.3: the caller's positions and the value of a user's positions (API key HMAC). */
export function registerPositionRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/user-positions', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: "The caller's held positions, valued at the latest prices",
      security,
      querystring: PositionsQuery,
      response: { 200: UserPositionsResponseSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => ctx.portfolio.reads.userPositions(requireCaller(request).proxyWallet, request.query));

  api.get('/markets/value', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: "Current USD value of a user's positions (the caller by default)",
      security,
      querystring: ValueQuery,
      response: { 200: UserPositionValueSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { user, markets } = request.query;
    return ctx.portfolio.reads.value(requireCaller(request), { user, markets: markets === undefined ? undefined : parseIds(markets, 'markets') });
  });
}
