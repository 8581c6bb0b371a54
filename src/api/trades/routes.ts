import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { Address, EpochMicros, errorResponses, UnixSeconds, UsdQueryAmount, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { TradeActivityListSchema, TradesListSchema } from './schemas.ts';

export const TradesQuery = Type.Object({
  id: Type.Optional(Uuid),
  market: Type.Optional(Uuid),
  taker: Type.Optional(Address),
  maker: Type.Optional(Address),
  user: Type.Optional(Address),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  before: Type.Optional(UnixSeconds('exclusive')),
  after: Type.Optional(UnixSeconds('exclusive')),
  beforeId: Type.Optional(Type.String({ format: 'uuid', description: 'tie-break cursor; requires before' })),
});

export const TradeActivityQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  before: Type.Optional(EpochMicros('exclusive; not with after')),
  after: Type.Optional(EpochMicros('exclusive; not with before')),
  beforeId: Type.Optional(Type.String({ format: 'uuid', description: 'requires before' })),
  eventId: Type.Optional(Uuid),
  minAmount: Type.Optional(UsdQueryAmount('notional minimum; cannot go below the platform floor')),
});

/** SPEC.md 4.6: public trades. */
export function registerTradeRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/trades', {
    config: { auth: 'public' },
    schema: { tags: ['trades'], summary: 'Trades, newest first (taker token, side and price)', querystring: TradesQuery, response: { 200: TradesListSchema, ...errorResponses(400) } },
  }, async (request) => ctx.marketData.trades.list(request.query));

  api.get('/trades/activity', {
    config: { auth: 'public' },
    schema: { tags: ['trades'], summary: 'Confirmed trades with trader, market and event, newest first', querystring: TradeActivityQuery, response: { 200: TradeActivityListSchema, ...errorResponses(400) } },
  }, async (request) => ctx.marketData.trades.activity(request.query));
}
