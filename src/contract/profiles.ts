import { Type } from 'typebox';

/** Public profiles by display name (SPEC.md section 4.8); never a wallet address. */

export const ProfileNameParams = Type.Object({ name: Type.String({ minLength: 1, description: 'public display name, any letter case; an unknown one is 404' }) });

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

export const PnlHistoryQuery = Type.Object({ range: PnlRangeSchema });
export const ProfilePositionsQuery = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('closed')]) });
export const ProfilePositionsSchema = Type.Union([Type.Array(ActiveProfilePositionSchema), Type.Array(ClosedProfilePositionSchema)]);
