import { Type } from 'typebox';
import { DisplayAmountOut } from './amount.ts';
import { Address, Nullable, PageNumber, UnixSeconds, Uuid } from './common.ts';
import { ActivitySchema, activityOffsetPageSchema, offsetPaging } from './markets.ts';

/** The caller's positions, activity, splits, merges and redeems (SPEC.md sections 2, 4.3 and 8; EXTENSIONS.md section 2). */

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

/** SPEC.md section 2: the user variant adds the market's display name and its event. */
export const UserActivitySchema = Type.Object({
  ...ActivitySchema.properties,
  displayName: Nullable(Type.String({ description: 'null: show `name`' })),
  isMultiMarket: Type.Boolean(),
  eventId: Type.Optional(Nullable(Uuid)),
  eventName: Type.Optional(Nullable(Type.String())),
});

export const UserActivityPageSchema = activityOffsetPageSchema(UserActivitySchema);

export const UserActivityQuery = Type.Object({
  term: Type.Optional(Type.String({ maxLength: 50, description: "case-insensitive partial match on the market's name or slug, or the event's name" })),
  name: Type.Optional(Type.String({ maxLength: 200, description: "case-insensitive partial match on the market's name" })),
  market: Type.Optional(Uuid),
  types: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5, description: 'BUY, SELL, SPLIT, MERGE, REDEEM: comma-separated, or repeated' })),
  fromTimestamp: Type.Optional(UnixSeconds('inclusive')),
  toTimestamp: Type.Optional(UnixSeconds('inclusive')),
  ...offsetPaging(10, true),
});

/** The hard maximum of a redeem or merge batch (SPEC.md section 8); POSITION_BATCH_MAX (default 50) applies below it. */
const HARD_BATCH_MAX = 200;

/** RedeemablePosition and MergeablePosition (SPEC.md section 2) share this shape. */
export const PositionMarketSchema = Type.Object({
  marketId: Uuid,
  onchainMarketId: Type.String(),
  conditionId: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  slug: Type.String(),
  name: Type.String(),
});

/** The body of batch redeem and batch merge: `{marketIds}`, 1 to the hard maximum. */
export const PositionBatchBody = Type.Object({ marketIds: Type.Array(Uuid, { minItems: 1, maxItems: HARD_BATCH_MAX }) });

/** BatchRedeemResponse and BatchMergeResponse: one transaction hash, what was included, what was not and why. */
export const batchResponseSchema = <const R extends readonly [string, ...string[]]>(reasons: R) => Type.Object({
  txHash: Type.String({ description: 'the one ledger transaction of every included market; "" when none was included' }),
  included: Type.Array(Uuid),
  excluded: Type.Array(Type.Object({ marketId: Uuid, reason: Type.Enum(reasons) })),
});

export const MergeablePositionSchema = PositionMarketSchema;

export const BatchMergeResponseSchema = batchResponseSchema(['not-mergeable', 'only-one-side', 'not-binary']);

export const RedeemablePositionSchema = PositionMarketSchema;

export const BatchRedeemResponseSchema = batchResponseSchema(['not-redeemable', 'zero-onchain-balance', 'not-binary']);

/** GET /markets/traded-count: how many distinct markets the caller has traded in. */
export const TradedCountSchema = Type.Integer({ minimum: 0 });

/** POST /markets/{marketId}/split (the body is `AmountBody`). */
export const SplitResponse = Type.Object({ txHash: Type.String(), amount: DisplayAmountOut });
