import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { ReferencePriceSchema } from '../prices/reference-routes.ts';
import { DateTime, errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { PairText, PriceText } from './catalogue-routes.ts';

/**
 * POST /admin/prices (EXTENSIONS.md section 13): the operator records a reference price, with any
 * PRICE_FEED (with `manual` it is the only source). `at` defaults to now and may not be later.
 */
export const ReferencePriceInputSchema = Type.Object({ pair: PairText, price: PriceText, at: Type.Optional(DateTime) }, { additionalProperties: false });

export function registerPriceAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/prices', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Record a reference price',
      security: [{ bearer: [] }],
      body: ReferencePriceInputSchema,
      response: { 200: ReferencePriceSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { pair, price, at } = request.body;
    return ctx.prices.record(pair, price, at === undefined ? ctx.clock.nowMs() : Date.parse(at));
  });
}
