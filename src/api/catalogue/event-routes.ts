import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { DateTime, errorResponses, PageNumber, UsdQueryAmount, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { EventPageSchema, EventSchema, EventStatusSchema, IdOrSlugParams, oneOf } from './schemas.ts';

const SORT_KEYS = ['id', 'name', 'startDate', 'endDate', 'tradeVolumeUsd', 'tradeVolumeUsd24h', 'createdAt', 'eventStatus', 'slug', 'liquidity'] as const;

export const EventListQuery = Type.Object({
  eventStatus: Type.Optional(EventStatusSchema),
  term: Type.Optional(Type.String({ maxLength: 200, description: 'searches event names, slugs and descriptions' })),
  category: Type.Optional(Uuid),
  tag: Type.Optional(Type.String({ format: 'uuid', description: 'alone filters by tag; with category, both must match' })),
  ends: Type.Optional(oneOf(['TODAY', 'THIS_WEEK', 'THIS_MONTH'] as const)),
  addedWithin: Type.Optional(oneOf(['LAST_24H', 'LAST_7D', 'LAST_30D'] as const)),
  minLiquidity: Type.Optional(UsdQueryAmount('inclusive')),
  maxLiquidity: Type.Optional(UsdQueryAmount('inclusive')),
  isSettled: Type.Optional(Type.Boolean()),
  isResolved: Type.Optional(Type.Boolean()),
  endDateFrom: Type.Optional(DateTime),
  endDateTo: Type.Optional(DateTime),
  includeVolume: Type.Optional(Type.Boolean()),
  includeResolution: Type.Optional(Type.Boolean({ default: false })),
  includeRewards: Type.Optional(Type.Boolean({ default: false })),
  protected: Type.Optional(Type.Boolean({ default: false, description: 'true includes protected events beside the others' })),
  single: Type.Optional(Type.Boolean()),
  sortBy: Type.Optional(oneOf(SORT_KEYS, 'default createdAt; liquidity needs minLiquidity or maxLiquidity')),
  order: Type.Optional(oneOf(['ASC', 'DESC'] as const, 'default DESC')),
  page: Type.Optional(PageNumber),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  total: Type.Optional(Type.Boolean({ default: true })),
});

export const EventReadQuery = Type.Object({
  includeVolume: Type.Optional(Type.Boolean()),
  includeResolution: Type.Optional(Type.Boolean({ default: false })),
  includeRewards: Type.Optional(Type.Boolean({ default: false })),
  marketScope: Type.Optional(oneOf(['AUTO', 'RECENT', 'ALL'] as const, 'public default AUTO, admin default ALL')),
  marketLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

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
    schema: { tags: ['events'], summary: 'Total USD volume of an event', params: IdOrSlugParams, response: { 200: Type.Number(), ...errorResponses(400, 404) } },
  }, async (request) => reads.getEventVolume(request.params.idOrSlug, request.isAdmin));
}
