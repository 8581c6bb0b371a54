import { Type, type TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

const Name = Type.Object({ name: Type.String({ minLength: 1, description: 'public display name, any letter case; an unknown one is 404' }) });
const SideSchema = Type.Union([Type.Literal('SIDE_A'), Type.Literal('SIDE_B')]);

const positionFields = {
  id: Type.String({ description: 'the position token id' }),
  market: Type.String({ description: "the market's title" }),
  eventName: Type.Optional(Type.String()),
  isMultiMarket: Type.Boolean(),
  isSeriesLayout: Type.Boolean(),
  image: Type.Optional(Type.String()),
  eventImage: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  side: SideSchema,
  avg: Type.Number({ description: 'average entry price, cents' }),
  bet: Type.String({ description: 'USD paid for the position' }),
};
export const ActiveProfilePositionSchema = Type.Object({
  ...positionFields,
  shares: Type.Number(),
  now: Type.Number({ description: 'latest price, cents' }),
  value: Type.String({ description: 'USD at the latest price' }),
  changePct: Type.Number({ description: 'percent' }),
});
export const ClosedProfilePositionSchema = Type.Object({
  ...positionFields,
  exit: Type.Number({ description: 'average exit price, cents' }),
  pnl: Type.String({ description: 'realised USD, signed' }),
  pnlPct: Type.Number({ description: 'percent' }),
});

export const ProfileSummarySchema = Type.Object({
  positionsValue: Type.String(),
  biggestWin: Type.String(),
  predictions: Type.Integer(),
  rewardsUsd: Type.String(),
  rewardsCount: Type.Integer(),
  allTimePnl: Type.String(),
});

/** Written out (not mapped from an array) so the SDK's type keeps the literals. */
export const PnlRangeSchema = Type.Union([Type.Literal('1D'), Type.Literal('1W'), Type.Literal('1M'), Type.Literal('1Y'), Type.Literal('YTD'), Type.Literal('ALL')]);
export const PnlHistorySchema = Type.Object({
  range: PnlRangeSchema,
  points: Type.Array(Type.Object({ time: Type.Integer({ description: 'Unix seconds' }), value: Type.Number({ description: 'USD' }) })),
  value: Type.String({ description: 'USD, signed: realised plus unrealised P&L now' }),
});

export const ProfileActivitySchema = Type.Object({
  id: Type.String(),
  action: Type.Union([Type.Literal('bought'), Type.Literal('sold')]),
  side: SideSchema,
  market: Type.String(),
  eventName: Type.Optional(Type.String()),
  isMultiMarket: Type.Boolean(),
  image: Type.Optional(Type.String()),
  eventImage: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  amount: Type.String({ description: 'USD' }),
  price: Type.Number({ description: 'cents' }),
  timestamp: Type.Integer({ description: 'Unix milliseconds' }),
});

const schema = (summary: string, response: TSchema) => ({ tags: ['profiles'], summary, params: Name, response: { 200: response, ...errorResponses(400, 404) } });

/** SPEC.md 4.8: public profiles by display name; never a wallet address. */
export function registerProfileRoutes(api: TypedApp, ctx: AppContext): void {
  const profiles = ctx.portfolio.profiles;
  api.get('/profiles/by-name/:name/summary', { config: { auth: 'public' }, schema: schema('Value, P&L and predictions of a public profile', ProfileSummarySchema) },
    async (request) => profiles.summary(request.params.name));

  api.get('/profiles/by-name/:name/pnl-history', {
    config: { auth: 'public' },
    schema: { ...schema('P&L over a range, from the recorded series', PnlHistorySchema), querystring: Type.Object({ range: PnlRangeSchema }) },
  }, async (request) => profiles.pnlHistory(request.params.name, request.query.range));

  api.get('/profiles/by-name/:name/positions', {
    config: { auth: 'public' },
    schema: {
      ...schema('Active or closed positions, by latest price descending (at most 1,000)', Type.Union([Type.Array(ActiveProfilePositionSchema), Type.Array(ClosedProfilePositionSchema)])),
      querystring: Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('closed')]) }),
    },
  }, async (request) => profiles.positions(request.params.name, request.query.status));

  api.get('/profiles/by-name/:name/activity', { config: { auth: 'public' }, schema: schema('The newest 100 trade rows', Type.Array(ProfileActivitySchema)) },
    async (request) => profiles.activity(request.params.name));
}
