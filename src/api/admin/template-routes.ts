import { Type, type Static } from 'typebox';
import { TEMPLATE_PERIODS } from '../../core/prices.ts';
import { TickSizeSchema, oneOf } from '../catalogue/schemas.ts';
import type { AppContext } from '../context.ts';
import { DateTime, errorResponses, Nullable, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { Amount, Bps, Liveness, orNull, PairText } from './catalogue-routes.ts';

const Lead = Type.Integer({ minimum: 0, maximum: 96, description: 'periods published ahead of the current one' });
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of market names, default UTC' });

/** RewardConfigInput (EXTENSIONS.md section 5) minus what each market's period fixes: date, window, boosts. */
const TemplateRewardsSchema = Type.Object({
  rewardUsdc: Type.String({ maxLength: 40 }),
  maxDistanceFromMid: Type.String({ maxLength: 40 }),
  extremeMaxDistanceFromMid: Type.Optional(Type.String({ maxLength: 40 })),
  minOrderSizeUsdc: Type.String({ maxLength: 40 }),
}, { additionalProperties: false });

export const TemplateInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.String({ maxLength: 10_000 }),
  pair: PairText,
  period: oneOf(TEMPLATE_PERIODS),
  firstStart: DateTime,
  lead: Type.Optional(Lead),
  displayTimezone: Type.Optional(Timezone),
  categories: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tags: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  reward: Type.Optional(Amount),
  proposalBond: Type.Optional(Amount),
  liveness: Type.Optional(Liveness),
  rewards: Type.Optional(TemplateRewardsSchema),
}, { additionalProperties: false });

export const TemplatePatchSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  lead: Type.Optional(Lead),
  displayTimezone: Type.Optional(Timezone),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  rewards: Type.Optional(orNull<Static<typeof TemplateRewardsSchema>>({ ...TemplateRewardsSchema })),
}, { additionalProperties: false });

export const TemplateSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  pair: Type.String(),
  period: oneOf(TEMPLATE_PERIODS),
  firstStart: DateTime,
  lead: Type.Integer(),
  displayTimezone: Type.String(),
  categories: Type.Array(Uuid),
  tags: Type.Array(Uuid),
  tickSize: Type.String(),
  orderFeeRateBps: Nullable(Type.Integer()),
  passiveOrderFeeRateBps: Nullable(Type.Integer()),
  reward: Type.String(),
  proposalBond: Type.String(),
  liveness: Type.Integer(),
  rewards: Nullable(TemplateRewardsSchema),
  eventId: Uuid,
  enabled: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

const meta = (summary: string) => ({ tags: ['admin'], summary, security: [{ bearer: [] }] });

/** EXTENSIONS.md section 13: templates that publish one price market per period into their series event. */
export function registerTemplateAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/templates', {
    config: { auth: 'admin' },
    schema: { ...meta('Create a template and its series event'), body: TemplateInputSchema, response: { 201: TemplateSchema, ...errorResponses(400, 401, 409) } },
  }, async (request, reply) => {
    const template = await ctx.templates.create(request.body);
    return reply.code(201).send(template);
  });

  api.get('/admin/templates', {
    config: { auth: 'admin' },
    schema: { ...meta('Every template, oldest first'), response: { 200: Type.Array(TemplateSchema), ...errorResponses(401) } },
  }, async () => ctx.templates.list());

  api.patch('/admin/templates/:templateId', {
    config: { auth: 'admin' },
    schema: { ...meta('Enable, disable or reshape the future markets of a template'), params: Type.Object({ templateId: Uuid }), body: TemplatePatchSchema, response: { 200: TemplateSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => ctx.templates.patch(request.params.templateId, request.body));
}
