import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { PairText } from '../admin/catalogue-routes.ts';
import { DateTime, errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

export const ReferencePriceSchema = Type.Object({
  pair: Type.String(),
  price: Type.String({ description: 'decimal' }),
  at: DateTime,
  source: Type.Union([Type.Literal('manual'), Type.Literal('pyth'), Type.Literal('binance')]),
});

/** GET /prices/reference (EXTENSIONS.md section 13): the last price at or before `at` (default now). */
export function registerReferencePriceRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/prices/reference', {
    schema: {
      tags: ['prices'],
      summary: 'The reference price of a pair at a time (price-target markets)',
      querystring: Type.Object({ pair: PairText, at: Type.Optional(DateTime) }),
      response: { 200: ReferencePriceSchema, ...errorResponses(400, 404) },
    },
  }, async (request) => {
    const { pair, at } = request.query;
    return ctx.prices.reference(pair, at === undefined ? ctx.clock.nowMs() : Date.parse(at));
  });
}
