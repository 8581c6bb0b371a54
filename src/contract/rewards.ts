import { Type } from 'typebox';
import { ClampedLimit, DateTime, Nullable, PageNumber, Uuid } from './common.ts';

/** Reward amounts: decimal strings with 6 decimals (SPEC.md "Rewards shapes"). */
const Usdc = Type.String({ description: 'decimal string, 6 decimals', examples: ['1.250000'] });

const NullableString = Nullable(Type.String());

export const RewardBoostWindow = Type.Object({ startAt: DateTime, endAt: DateTime, multiplier: Type.String() });

const MarketRewardFields = {
  marketId: Uuid,
  marketSlug: NullableString,
  marketName: NullableString,
  marketDisplayName: NullableString,
  rewardUsdc: Nullable(Usdc),
  rewardStatus: Type.Union([Type.Literal('ACCRUING'), Type.Literal('SCHEDULED')]),
  accruingNow: Type.Boolean(),
  rewardStartAt: Nullable(DateTime),
  rewardEndAt: Nullable(DateTime),
  maxDistanceFromMid: Type.String(),
  extremeMaxDistanceFromMid: Type.String(),
  minOrderSizeUsdc: Usdc,
  boostWindows: Type.Array(RewardBoostWindow),
  activeBoostWindow: Nullable(RewardBoostWindow),
  currentBoostMultiplier: Type.String(),
};

export const MarketReward = Type.Object(MarketRewardFields);

export const MarketRewardDetail = Type.Object({
  ...MarketRewardFields,
  eventId: Uuid,
  eventSlug: NullableString,
  eventName: NullableString,
  isMultiMarket: Type.Boolean(),
  isActive: Type.Boolean(),
});

export const RewardConfigInput = Type.Object({
  date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  rewardUsdc: Type.String(),
  startAt: Type.Optional(DateTime),
  endAt: Type.Optional(DateTime),
  maxDistanceFromMid: Type.String(),
  extremeMaxDistanceFromMid: Type.Optional(Type.String()),
  minOrderSizeUsdc: Type.String(),
  boostWindows: Type.Optional(Type.Array(Type.Object({ startAt: DateTime, endAt: DateTime, multiplier: Type.String() }, { additionalProperties: false }), { maxItems: 48 })),
  enabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

const PayoutStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('PAID'), Type.Literal('CARRIED'), Type.Literal('ROLLED_UP'), Type.Literal('FAILED'), Type.Literal('CANCELLED'), Type.Literal('NEEDS_INVESTIGATION')]);

export const UserRewardsSummary = Type.Object({
  todayByMarket: Type.Array(Type.Object({
    marketId: Uuid, marketSlug: NullableString, marketName: NullableString, marketDisplayName: NullableString,
    earnedSoFarUsdc: Usdc, pendingSettlement: Type.Boolean(), estimatedRewardUsdc: Nullable(Usdc),
  })),
  earnedSoFarUsdc: Usdc,
  pendingSettlementTotalUsdc: Usdc,
  yesterdaySettled: Type.Object({
    totalPaidUsdc: Usdc,
    perMarket: Type.Array(Type.Object({
      marketId: Uuid, marketSlug: NullableString, marketName: NullableString, marketDisplayName: NullableString,
      amountUsdc: Usdc, status: Type.String(), txHash: Type.Optional(Type.String()),
    })),
  }),
  claimableUsdc: Usdc,
  allTimeEarnedUsdc: Usdc,
  claimInFlight: Type.Boolean(),
  minPayoutUsdc: Usdc,
  canClaim: Type.Boolean(),
});

export const QualifyingOrder = Type.Object({
  orderId: Uuid, marketId: Uuid, marketName: NullableString, marketDisplayName: NullableString,
  outcome: NullableString, outcomeIndex: Nullable(Type.Integer()), side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  price: Type.Number(), sizeUsdc: Usdc,
});

export const UserPayoutHistoryItem = Type.Object({
  marketId: Uuid, marketSlug: NullableString, marketName: NullableString, marketDisplayName: NullableString,
  epochDate: Type.String(), earnedUsdc: Usdc, carriedInUsdc: Usdc, amountUsdc: Usdc, status: PayoutStatus,
  txHash: Type.Optional(Type.String()), paidAt: Type.Optional(DateTime),
});

export const PublicRewardsMarketPoolPage = Type.Object({
  first: Type.Integer(), last: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), totalRewardUsdc: Usdc,
  data: Type.Array(Type.Object({ eventId: Nullable(Uuid), eventName: Type.String(), eventSlug: NullableString, isMultiMarket: Type.Boolean(), markets: Type.Array(MarketReward) })),
});

const LeaderboardEntry = Type.Object({
  rank: Type.Integer(), userId: Uuid, displayName: Type.Optional(Type.String()), anonymous: Type.Optional(Type.Boolean()),
  isCurrentUser: Type.Boolean(), earnedUsdc: Usdc,
});

export const RewardsLeaderboardResponse = Type.Object({
  first: Type.Integer(), last: Type.Integer(), limit: Type.Integer(), total: Type.Integer(),
  data: Type.Array(LeaderboardEntry), window: Type.Union([Type.Literal('24h'), Type.Literal('week'), Type.Literal('all')]),
  currentUser: Type.Optional(Nullable(LeaderboardEntry)),
});

export const ClaimResponse = Type.Object({
  accepted: Type.Boolean(),
  outcome: Type.Union([Type.Literal('dispatched'), Type.Literal('nothing-to-claim'), Type.Literal('below-threshold')]),
  claimableAmountUsdc: Usdc,
  recipientCount: Type.Integer(),
  rowCount: Type.Integer(),
  pollUrl: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

export const PayoutHistoryPage = Type.Object({
  data: Type.Array(UserPayoutHistoryItem),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Nullable(Type.Integer()),
  totalCapped: Type.Optional(Type.Boolean()),
});

export const PayoutHistoryQuery = Type.Object({
  page: PageNumber,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  total: Type.Boolean({ default: false }),
});

/** `limit` above 50 is clamped, not refused. */
export const RewardPoolsQuery = Type.Object({
  page: PageNumber,
  limit: ClampedLimit(20),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

/** `limit` above 100 is clamped, not refused. */
export const LeaderboardQuery = Type.Object({
  window: Type.Union([Type.Literal('24h'), Type.Literal('week'), Type.Literal('all')], { default: '24h' }),
  page: PageNumber,
  limit: ClampedLimit(20),
});
