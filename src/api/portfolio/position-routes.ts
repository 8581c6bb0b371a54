import { Type } from 'typebox';
import { requireCaller } from '../auth/caller.ts';
import { parseIds } from '../catalogue/market-routes.ts';
import type { AppContext } from '../context.ts';
import { Address, errorResponses, PageNumber, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

const security = [{ apiKey: [] }];

export const UserPositionSchema = Type.Object({
  market_uuid: Uuid,
  tokenId: Type.String(),
  acquisitionPrice: Type.String({ description: 'average price paid per token, fees included; a split counts at 0.5' }),
  amount: Type.String({ description: 'tokens held, display units' }),
  latest: Type.String({ description: 'last trade price, else book midpoint, else 0.5; a resolved token at its payout' }),
  current: Type.String({ description: 'amount × latest, USD' }),
  initial: Type.String({ description: 'amount × acquisitionPrice, USD' }),
  return: Type.String({ description: 'current − initial, USD, signed' }),
  displayName: Type.Union([Type.String(), Type.Null()]),
  icon: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  eventName: Type.Optional(Type.String()),
  eventIcon: Type.Optional(Type.String()),
  conditionId: Type.Optional(Type.String()),
  outcome: Type.Optional(Type.String()),
  eventId: Type.Optional(Uuid),
  isMultiMarket: Type.Optional(Type.Boolean()),
  isSeriesLayout: Type.Optional(Type.Boolean()),
  isDisputed: Type.Optional(Type.Boolean()),
  isSettled: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Union([Type.Literal('DRAFT'), Type.Literal('ACTIVE'), Type.Literal('RESOLVED')])),
  resolvedTo: Type.Optional(Type.String()),
  outcomeIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  orderFeeRateBps: Type.Optional(Type.Integer()),
  passiveOrderFeeRateBps: Type.Optional(Type.Integer()),
  proposedResolvedTo: Type.Optional(Type.Union([Type.Literal('YES'), Type.Literal('NO'), Type.Literal('TIE')])),
  proposedAt: Type.Optional(Type.Integer({ description: 'Unix seconds' })),
  liveness: Type.Optional(Type.Integer({ description: 'dispute window, seconds' })),
});

export const UserPositionsResponseSchema = Type.Object({
  first: Type.Integer(),
  last: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  data: Type.Array(UserPositionSchema),
});

export const PositionsQuery = Type.Object({
  // The unions are written out (not mapped from arrays) so the SDK's request type keeps the literals.
  status: Type.Optional(Type.Union([Type.Literal('DRAFT'), Type.Literal('ACTIVE'), Type.Literal('RESOLVED')])),
  id: Type.Optional(Uuid),
  eventId: Type.Optional(Uuid),
  title: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  sortBy: Type.Union([Type.Literal('latest'), Type.Literal('current'), Type.Literal('initial'), Type.Literal('return')], { default: 'latest' }),
  order: Type.Union([Type.Literal('ASC'), Type.Literal('DESC')], { default: 'DESC' }),
});

export const ValueQuery = Type.Object({
  user: Type.Optional(Address),
  markets: Type.Optional(Type.Array(Type.String({ maxLength: 8000 }), { description: 'market UUIDs, comma-separated or repeated' })),
});

export const UserPositionValueSchema = Type.Object({ user: Address, value: Type.Number() });

/** SPEC.md 4.3: the caller's positions and the value of a user's positions (API key HMAC). */
export function registerPositionRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/markets/user-positions', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: "The caller's held positions, valued at the latest prices",
      security,
      querystring: PositionsQuery,
      response: { 200: UserPositionsResponseSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => ctx.portfolio.reads.userPositions(requireCaller(request).proxyWallet, request.query));

  api.get('/markets/value', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['portfolio'],
      summary: "Current USD value of a user's positions (the caller by default)",
      security,
      querystring: ValueQuery,
      response: { 200: UserPositionValueSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { user, markets } = request.query;
    return ctx.portfolio.reads.value(requireCaller(request), { user, markets: markets === undefined ? undefined : parseIds(markets, 'markets') });
  });
}
