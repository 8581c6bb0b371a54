import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { errorResponses, PageNumber } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

// Unions written out, not mapped from arrays: the SDK's request types come from this schema, and
// TypeScript cannot follow a mapped array into a union of literals.

export const PriceHistoryQuery = Type.Object({
  token: Type.String({ pattern: '^[0-9]{1,78}$', description: 'outcome token id' }),
  interval: Type.Union([Type.Literal('1H'), Type.Literal('6H'), Type.Literal('1D'), Type.Literal('1W'), Type.Literal('1M'), Type.Literal('ALL')]),
  fidelity: Type.Integer({ minimum: 1, maximum: 1440, description: 'minutes per point; above the interval maximum it is clamped unless strictFidelity' }),
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 1440, default: 10 }),
  total: Type.Boolean({ default: true }),
  strictFidelity: Type.Boolean({ default: false }),
  sortBy: Type.Union([Type.Literal('timestamp'), Type.Literal('price')], { default: 'timestamp' }),
  order: Type.Union([Type.Literal('ASC'), Type.Literal('DESC')], { default: 'ASC' }),
});

export const PriceHistorySchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Union([Type.Integer(), Type.Null()]),
  pageCount: Type.Union([Type.Integer(), Type.Null()]),
  totalCapped: Type.Optional(Type.Boolean()),
  data: Type.Array(Type.Object({ t: Type.Integer({ description: 'bucket start, Unix seconds' }), p: Type.String() })),
});

/** SPEC.md 4.5: a token's price per `fidelity`-minute bucket. */
export function registerPriceHistoryRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/price-history', {
    config: { auth: 'public' },
    schema: { tags: ['prices'], summary: 'Price history of an outcome token', querystring: PriceHistoryQuery, response: { 200: PriceHistorySchema, ...errorResponses(400, 404) } },
  }, async (request) => ctx.marketData.priceHistory.history(request.query));
}
