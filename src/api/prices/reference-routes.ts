import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { ReferencePriceQuery, ReferencePriceSchema } from '../../contract/prices.ts';
import type { TypedApp } from '../typed-app.ts';

/** GET /prices/reference (EXTENSIONS.md section 13): the last price at or before `at` (default now). */
export function registerReferencePriceRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/prices/reference', {
    schema: {
      tags: ['prices'],
      summary: 'The reference price of a pair at a time (price-target markets)',
      querystring: ReferencePriceQuery,
      response: { 200: ReferencePriceSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => {
    const { pair, at } = request.query;
    return ctx.prices.reference(pair, at === undefined ? ctx.clock.nowMs() : Date.parse(at));
  });
}
