import { IdOrSlugParams } from '../../contract/catalogue.ts';
import { errorResponses } from '../../contract/common.ts';
import { MarketHoldersQuery, MarketHoldersSchema } from '../../contract/markets.ts';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';

/** SPEC.md 4.2: the top holders of each outcome of a market. */
export function registerHolderRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/:idOrSlug/holders', {
    config: { auth: 'optionalUser' },
    schema: {
      tags: ['markets'],
      summary: 'Top holders per outcome, ranked by shares',
      params: IdOrSlugParams,
      querystring: MarketHoldersQuery,
      response: { 200: MarketHoldersSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => ctx.marketData.holders.ofMarket(request.params.idOrSlug, request.query.limit, request.isAdmin));
}
