import { Type } from 'typebox';
import { Address, EpochMicros, Nullable, UnixSeconds, UsdQueryAmount, Uuid } from './common.ts';

/** Trade (raw) of SPEC.md section 2: the taker's token, side, price and size; Unix seconds. */
export const TradeSchema = Type.Object({
  id: Uuid,
  market: Uuid,
  tokenId: Type.String(),
  price: Nullable(Type.String()),
  size: Nullable(Type.String()),
  side: Type.Integer({ description: '0 buy, 1 sell (the taker)' }),
  status: Type.String({ description: 'MATCHED, MINED, CONFIRMED or FAILED' }),
  txHash: Nullable(Type.String()),
  taker: Nullable(Address),
  maker: Nullable(Address),
  matchedAt: Type.Integer({ description: 'Unix seconds' }),
  confirmedAt: Nullable(Type.Integer({ description: 'Unix seconds' })),
});

export const TradesListSchema = Type.Object({ data: Type.Array(TradeSchema), hasMore: Type.Boolean() });

/** TradeActivity of SPEC.md section 2: one confirmed trade, showing the taker; epoch microseconds. */
export const TradeActivitySchema = Type.Object({
  id: Uuid,
  matchedAt: Type.Integer({ description: 'epoch microseconds' }),
  confirmedAt: Nullable(Type.Integer({ description: 'epoch microseconds' })),
  userId: Uuid,
  displayName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  anonymous: Type.Optional(Type.Boolean()),
  side: Type.Union([Type.Literal('bought'), Type.Literal('sold')]),
  sideRaw: Type.Integer(),
  outcome: Type.Union([Type.Literal('Side_A'), Type.Literal('Side_B'), Type.Null()]),
  notionalUsd: Type.Number(),
  price: Type.String(),
  size: Type.String(),
  tokenId: Type.String(),
  marketId: Uuid,
  marketName: Nullable(Type.String()),
  marketDisplayName: Nullable(Type.String()),
  eventId: Nullable(Uuid),
  eventSlug: Nullable(Type.String()),
  eventName: Nullable(Type.String()),
  isMultiMarket: Type.Boolean(),
});

export const TradeActivityListSchema = Type.Object({ data: Type.Array(TradeActivitySchema), hasMore: Type.Boolean() });

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
  after: Type.Optional(EpochMicros('exclusive; not with before. Catch-up: a confirmed trade is listed once every trade matched before it has settled, so the newest matchedAt read misses nothing later')),
  beforeId: Type.Optional(Type.String({ format: 'uuid', description: 'requires before' })),
  eventId: Type.Optional(Uuid),
  minAmount: Type.Optional(UsdQueryAmount('notional minimum; cannot go below the platform floor')),
});
