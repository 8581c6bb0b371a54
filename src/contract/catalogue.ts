import { Type } from 'typebox';
import { DateTime, Nullable, oneOf, PageNumber, UsdQueryAmount, Uuid } from './common.ts';
import { ResolutionSchema } from './oracle.ts';
import { MarketReward } from './rewards.ts';

/** SPEC.md section 2 shapes of the catalogue: Event, Market, Tag, Category, MarketVolume; the queries of SPEC.md sections 4.1 and 4.2. */

export const TICK_SIZES = ['0.1', '0.01', '0.001', '0.0001'] as const;

export const TickSizeSchema = oneOf(TICK_SIZES, 'minimum price increment');

export const MarketStatusSchema = oneOf(['DRAFT', 'ACTIVE', 'RESOLVED'] as const);

export const EventStatusSchema = oneOf(['DRAFT', 'ACTIVE', 'RESOLVED', 'ENDED'] as const);

export const TagSchema = Type.Object({ id: Uuid, slug: Type.String(), label: Type.String(), type: Type.String() });

export const CategorySchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  createdBy: Uuid,
  updatedBy: Nullable(Uuid),
  active: Type.Boolean(),
  position: Type.Integer(),
});

const nullableText = Nullable(Type.String());

/** EXTENSIONS.md section 13: a market's price target; outcome 1 wins when the price at resolveAt is at or above targetPrice. */
export const PriceTargetConfigSchema = Type.Object({
  targetType: oneOf(['CLOSE_PRICE', 'FIXED'] as const),
  pair: Type.String({ description: 'BASE/QUOTE, e.g. BTC/USD' }),
  source: oneOf(['oracle', 'manual'] as const),
  targetPrice: Nullable(Type.String({ description: 'decimal; null while a CLOSE_PRICE target is unknown' })),
  targetAt: DateTime,
  resolveAt: DateTime,
});

export const MarketSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  startDate: Nullable(DateTime),
  endDate: Nullable(DateTime),
  description: nullableText,
  chance: Type.Number({ description: 'last trade price of outcome 1, 0.5 before the first trade' }),
  status: MarketStatusSchema,
  icon: Type.String(),
  tokenId1: Nullable(Type.String({ description: 'null until the event is published' })),
  tokenId2: Nullable(Type.String()),
  outcome1: Type.String(),
  outcome2: Type.String(),
  ancillaryData: Type.String(),
  isInitialized: Type.Boolean(),
  isRegistered: Type.Boolean(),
  isPaused: Type.Boolean(),
  hidden: Type.Boolean(),
  isResolved: Type.Boolean(),
  isSettled: Type.Boolean(),
  isDisputed: Type.Boolean(),
  hasProposedPrice: Type.Boolean(),
  negRisk: Type.Boolean(),
  conditionId: nullableText,
  questionId: nullableText,
  orderFeeRateBps: Type.Integer(),
  passiveOrderFeeRateBps: Type.Integer(),
  tickSize: Type.String(),
  speedBumpDelayMs: Type.Integer(),
  firstPriceDataAt: Nullable(DateTime),
  resolvedOnAdapterTimestamp: Type.Integer(),
  questionFlaggedTimestamp: Type.Integer(),
  marketResolvedTo: Type.String(),
  marketId: Type.String(),
  transactionHash: Type.String(),
  eventId: Uuid,
  questionIndex: Nullable(Type.Integer()),
  proposedAt: Nullable(DateTime),
  proposedPrice: nullableText,
  displayTimezone: nullableText,
  priceTargetConfig: Nullable(PriceTargetConfigSchema),
  tradeVolumeUsd: Type.Optional(Type.String()),
  tradeVolumeUsd24h: Type.Optional(Type.String()),
  resolution: Type.Optional(ResolutionSchema),
  reward: Type.Optional(Nullable(MarketReward)),
});

export const EventSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  startDate: DateTime,
  createdBy: Uuid,
  endDate: Nullable(DateTime),
  icon: Type.String(),
  eventStatus: EventStatusSchema,
  protected: Type.Boolean(),
  single: Type.Boolean(),
  negRisk: Type.Boolean(),
  isDetermined: Type.Boolean(),
  isInitialized: Type.Boolean(),
  winningMarketId: Nullable(Uuid),
  feeBips: Nullable(Type.Integer()),
  reward: Type.String(),
  proposalBond: Type.String(),
  liveness: Type.Integer(),
  orderFeeRateBps: Type.Integer(),
  passiveOrderFeeRateBps: Type.Integer(),
  marketId: Type.String(),
  ancillaryData: Type.String(),
  metadata: Type.Optional(Type.Object({
    cryptoPairTargetPrice: Type.Optional(Type.String({ description: "a series event's current market target (EXTENSIONS.md section 13)" })),
  }, { additionalProperties: true })),
  templateId: Type.Optional(Uuid),
  categories: Type.Array(CategorySchema),
  tags: Type.Array(TagSchema),
  markets: Type.Array(MarketSchema),
  totalVolumeUSD: Type.String(),
  liquidity: Type.String(),
});

export const EventPageSchema = Type.Object({
  data: Type.Array(EventSchema),
  total: Nullable(Type.Integer({ description: 'matching events, capped; null when total=false' })),
  totalCapped: Type.Boolean(),
  page: Type.Integer(),
  limit: Type.Integer(),
}, { description: 'Pagination<Event>' });

export const MarketVolumeSchema = Type.Object({ marketId: Uuid, eventId: Uuid, tradeVolumeUsd: Type.String(), tradeVolumeUsd24h: Type.String() });

export const IdOrSlugParams = Type.Object({ idOrSlug: Type.String({ minLength: 1, maxLength: 200 }) });

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

/** GET /events/{idOrSlug}/volume: the event's total USD volume. */
export const EventVolumeSchema = Type.Number();

/** GET /markets: UUIDs as one comma-separated value or repeated parameters (EXTENSIONS.md section 11). */
export const MarketIdsQuery = Type.Object({ ids: Type.Optional(Type.Array(Type.String({ maxLength: 8000 }), { description: 'comma-separated UUIDs, or repeated' })) });
