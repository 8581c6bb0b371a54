import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { CategoryInputSchema, EventIdParams, EventInputSchema, MarketInputSchema, MarketPatchSchema, TagInputSchema } from '../../contract/admin.ts';
import { CategorySchema, EventSchema, MarketSchema, TagSchema } from '../../contract/catalogue.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';

const meta = (summary: string) => ({ tags: ['admin'], summary, security: [{ bearer: [] }] });

/** EXTENSIONS.md section 3: the operator's catalogue writes. Reads are the public routes with the admin token. */
export function registerCatalogueAdminRoutes(api: TypedApp, ctx: AppContext): void {
  const { admin, reads } = ctx.catalogue;
  const adminEvent = (id: string) => reads.getEvent(id, { marketScope: 'ALL', marketLimit: 200 }, true);

  api.post('/admin/categories', {
    config: { auth: 'admin' },
    schema: { ...meta('Create a category'), body: CategoryInputSchema, response: { 200: CategorySchema, ...errorResponses(400, 401) } },
  }, async (request) => admin.createCategory(request.body));

  // Not in EXTENSIONS.md section 3: the operator's lists, so a CLI or back office can find the ids
  // that EventInput takes. Unpaged: categories and tags are a handful the operator made.
  api.get('/admin/categories', {
    config: { auth: 'admin' },
    schema: { ...meta('Every category, by position then name (inactive ones included)'), response: { 200: Type.Array(CategorySchema), ...errorResponses(401) } },
  }, async () => reads.listCategories());

  api.get('/admin/tags', {
    config: { auth: 'admin' },
    schema: { ...meta('Every tag, by slug'), response: { 200: Type.Array(TagSchema), ...errorResponses(401) } },
  }, async () => reads.listTags());

  api.post('/admin/tags', {
    config: { auth: 'admin' },
    schema: { ...meta('Create a tag (slugs are unique)'), body: TagInputSchema, response: { 200: TagSchema, ...errorResponses(400, 401, 409) } },
  }, async (request) => admin.createTag(request.body));

  api.post('/admin/events', {
    config: { auth: 'admin' },
    schema: { ...meta('Create a DRAFT event with DRAFT markets'), body: EventInputSchema, response: { 200: EventSchema, ...errorResponses(400, 401, 409) } },
  }, async (request) => adminEvent(await admin.createEvent(request.body)));

  api.post('/admin/events/:eventId/markets', {
    config: { auth: 'admin' },
    schema: { ...meta('Add a DRAFT market to an event'), params: EventIdParams, body: MarketInputSchema, response: { 200: MarketSchema, ...errorResponses(400, 401, 404, 409) } },
  }, async (request) => reads.getMarket(await admin.addMarket(request.params.eventId, request.body), true));

  api.post('/admin/events/:eventId/publish', {
    config: { auth: 'admin' },
    schema: { ...meta('Publish an event: its DRAFT markets get settlement ids and become ACTIVE'), params: EventIdParams, response: { 200: EventSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => {
    await admin.publishEvent(request.params.eventId);
    return adminEvent(request.params.eventId);
  });

  api.patch('/admin/markets/:marketId', {
    config: { auth: 'admin' },
    schema: { ...meta('Pause, hide or re-price a market'), params: MarketIdParams, body: MarketPatchSchema, response: { 200: MarketSchema, ...errorResponses(400, 401, 404, 409) } },
  }, async (request) => {
    await admin.patchMarket(request.params.marketId, request.body);
    return reads.getMarket(request.params.marketId, true);
  });
}
