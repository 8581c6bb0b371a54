import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { badRequest } from '../../contract/errors.ts';
import { IdOrSlugParams, MarketIdsQuery, MarketSchema, MarketVolumeSchema } from '../../contract/catalogue.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';

/** The most ids one GET /markets call reads. */
export const MAX_MARKET_IDS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDs as one comma-separated value or repeated parameters (EXTENSIONS.md section 11). */
export function parseIds(values: string[] | undefined, name = 'ids'): string[] {
  const ids = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw badRequest(`${name}: "${bad}" is not a UUID`);
  if (ids.length > MAX_MARKET_IDS) throw badRequest(`${name}: at most ${MAX_MARKET_IDS} markets per call`);
  return ids;
}

/** SPEC.md section 4.2: markets by ids, one market, its volume. */
export function registerMarketRoutes(api: TypedApp, ctx: AppContext): void {
  const reads = ctx.catalogue.reads;

  api.get('/markets', {
    config: { auth: 'public' },
    schema: {
      tags: ['markets'],
      summary: 'Markets by id (an empty array without ids)',
      querystring: MarketIdsQuery,
      response: { 200: Type.Array(MarketSchema), ...errorResponses(400) },
    },
  }, async (request) => reads.listMarkets(parseIds(request.query.ids), request.isAdmin));

  api.get('/markets/:idOrSlug', {
    config: { auth: 'public' },
    schema: { tags: ['markets'], summary: 'One market by id or slug', params: IdOrSlugParams, response: { 200: MarketSchema, ...errorResponses(400, 404) } },
  }, async (request) => reads.getMarket(request.params.idOrSlug, request.isAdmin));

  api.get('/markets/:marketId/volume', {
    config: { auth: 'public' },
    schema: { tags: ['markets'], summary: 'All-time and 24-hour USD volume of a market', params: MarketIdParams, response: { 200: MarketVolumeSchema, ...errorResponses(400, 404) } },
  }, async (request) => reads.getMarketVolume(request.params.marketId, request.isAdmin));
}
