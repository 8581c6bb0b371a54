import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { PriceHistoryQuery, PriceHistorySchema } from '../../contract/prices.ts';
import type { TypedApp } from '../typed-app.ts';

/** SPEC.md 4.5: a token's price per `fidelity`-minute bucket. */
export function registerPriceHistoryRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/price-history', {
    config: { auth: 'public' },
    schema: { tags: ['prices'], summary: 'Price history of an outcome token', querystring: PriceHistoryQuery, response: { 200: PriceHistorySchema, ...errorResponses(400, 404) } },
  }, async (request) => ctx.marketData.priceHistory.history(request.query));
}
