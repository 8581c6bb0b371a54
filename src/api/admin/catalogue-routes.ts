import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { CategorySchema, EventSchema, MarketSchema, TagSchema, TickSizeSchema } from '../catalogue/schemas.ts';
import { DateTime, errorResponses, Uuid } from '../schemas/common.ts';
import { PAIR_PATTERN } from '../../core/prices.ts';
import type { TypedApp } from '../typed-app.ts';

/**
 * `type: [T, null]` rather than anyOf: with the app's type coercion an anyOf would coerce null
 * into "" or 0 while trying its branches.
 */
export const orNull = <T>(schema: Record<string, unknown>) => Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

export const Bps = Type.Integer({ minimum: 0, maximum: 10_000, description: 'basis points' });
export const Amount = Type.String({ maxLength: 40, description: 'collateral, decimal string in display units' });
const SPEED_BUMP_MAX_MS = 60_000;
export const Liveness = Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'seconds, default 7200' });

/** Reference prices: positive decimals of at most 8 decimals (core/prices.ts parses them). */
export const PriceText = Type.String({ pattern: '^(0|[1-9][0-9]{0,10})(\\.[0-9]{1,8})?$', description: 'decimal, at most 8 decimals' });
export const PairText = Type.String({ pattern: PAIR_PATTERN, description: 'BASE/QUOTE, e.g. BTC/USD' });

const PriceTargetInputSchema = Type.Object({
  targetType: Type.Union([Type.Literal('CLOSE_PRICE'), Type.Literal('FIXED')]),
  pair: PairText,
  source: Type.Optional(Type.Union([Type.Literal('oracle'), Type.Literal('manual')], { default: 'oracle' })),
  targetPrice: Type.Optional(orNull<string>({ ...PriceText })),
  targetAt: Type.Optional(DateTime),
  resolveAt: Type.Optional(DateTime),
}, { additionalProperties: false });

export const MarketInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  description: Type.Optional(orNull<string>({ type: 'string', maxLength: 10_000 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  outcome1: Type.Optional(Type.String({ minLength: 1, maxLength: 50, default: 'Yes' })),
  outcome2: Type.Optional(Type.String({ minLength: 1, maxLength: 50, default: 'No' })),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  speedBumpDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: SPEED_BUMP_MAX_MS, default: 0 })),
  displayTimezone: Type.Optional(orNull<string>({ type: 'string', maxLength: 64, description: 'IANA time zone' })),
  questionIndex: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 10_000 })),
  priceTargetConfig: Type.Optional(PriceTargetInputSchema),
}, { additionalProperties: false });

export const EventInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  description: Type.String({ maxLength: 10_000 }),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  negRisk: Type.Optional(Type.Boolean()),
  feeBips: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 10_000 })),
  protected: Type.Optional(Type.Boolean()),
  seriesLayout: Type.Optional(Type.Boolean()),
  categories: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tags: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  reward: Type.Optional(Amount),
  proposalBond: Type.Optional(Amount),
  liveness: Type.Optional(Liveness),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  markets: Type.Array(MarketInputSchema, { minItems: 1, maxItems: 200 }),
}, { additionalProperties: false });

export const MarketPatchSchema = Type.Object({
  isPaused: Type.Optional(Type.Boolean()),
  hidden: Type.Optional(Type.Boolean()),
  speedBumpDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: SPEED_BUMP_MAX_MS })),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  tickSize: Type.Optional(TickSizeSchema),
  priceTargetConfig: Type.Optional(Type.Object({ targetPrice: PriceText }, { additionalProperties: false })),
}, { additionalProperties: false });

export const CategoryInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const TagInputSchema = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 120 }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.String({ minLength: 1, maxLength: 50 }),
}, { additionalProperties: false });

const EventParams = Type.Object({ eventId: Uuid });
const MarketParams = Type.Object({ marketId: Uuid });
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
    schema: { ...meta('Add a DRAFT market to an event'), params: EventParams, body: MarketInputSchema, response: { 200: MarketSchema, ...errorResponses(400, 401, 404, 409) } },
  }, async (request) => reads.getMarket(await admin.addMarket(request.params.eventId, request.body), true));

  api.post('/admin/events/:eventId/publish', {
    config: { auth: 'admin' },
    schema: { ...meta('Publish an event: its DRAFT markets get settlement ids and become ACTIVE'), params: EventParams, response: { 200: EventSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => {
    await admin.publishEvent(request.params.eventId);
    return adminEvent(request.params.eventId);
  });

  api.patch('/admin/markets/:marketId', {
    config: { auth: 'admin' },
    schema: { ...meta('Pause, hide or re-price a market'), params: MarketParams, body: MarketPatchSchema, response: { 200: MarketSchema, ...errorResponses(400, 401, 404, 409) } },
  }, async (request) => {
    await admin.patchMarket(request.params.marketId, request.body);
    return reads.getMarket(request.params.marketId, true);
  });
}
