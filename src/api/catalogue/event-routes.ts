import type { AppContext } from '../context.ts';
import { EventListQuery, EventPageSchema, EventReadQuery, EventSchema, EventVolumeSchema, IdOrSlugParams } from '../../contract/catalogue.ts';
import { errorResponses } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';

/** SPEC.md section 4.1: the public event list, one event, its volume. */
export function registerEventRoutes(api: TypedApp, ctx: AppContext): void {
  const reads = ctx.catalogue.reads;

  api.get('/events', {
    config: { auth: 'public' },
    schema: { tags: ['events'], summary: 'List events', querystring: EventListQuery, response: { 200: EventPageSchema, ...errorResponses(400) } },
  }, async (request) => {
    const q = request.query;
    return reads.listEvents({ ...q, page: q.page ?? 1, limit: q.limit ?? 10, total: q.total ?? true }, request.isAdmin);
  });

  api.get('/events/:idOrSlug', {
    config: { auth: 'public' },
    schema: { tags: ['events'], summary: 'One event by id or slug', params: IdOrSlugParams, querystring: EventReadQuery, response: { 200: EventSchema, ...errorResponses(400, 404) } },
  }, async (request) => reads.getEvent(request.params.idOrSlug, { ...request.query, marketLimit: request.query.marketLimit ?? 50 }, request.isAdmin));

  api.get('/events/:idOrSlug/volume', {
    config: { auth: 'public' },
    schema: { tags: ['events'], summary: 'Total USD volume of an event', params: IdOrSlugParams, response: { 200: EventVolumeSchema, ...errorResponses(400, 404) } },
  }, async (request) => reads.getEventVolume(request.params.idOrSlug, request.isAdmin));
}
