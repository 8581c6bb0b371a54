/**
 * Types of routes that are not on this branch yet (SPEC.md 4.3 portfolio reads and merge, 4.7
 * rewards, 4.8 public profiles), written by hand from SPEC.md section 2. Each should become the
 * `Static<>` of its route's schema in `types.ts` once the route lands, as every other SDK type is.
 */
import type { Activity, BatchRedeemResponse, RedeemablePosition } from './types.ts';

type Uuid = string;
type Usd = string;
type Paged<T> = { data: T[]; total: number | null; totalCapped?: boolean; page?: number; limit?: number };

export interface UserPosition {
  market_uuid: Uuid; tokenId: string; acquisitionPrice: string; amount: string; latest: string; current: string; initial: string; return: string; displayName: string | null;
  icon?: string; slug?: string; title?: string; eventName?: string; eventIcon?: string; conditionId?: string; outcome?: string; eventId?: Uuid;
  isMultiMarket?: boolean; isSeriesLayout?: boolean; isDisputed?: boolean; isSettled?: boolean; status?: string; resolvedTo?: string | number; outcomeIndex?: number;
  orderFeeRateBps?: number; passiveOrderFeeRateBps?: number; proposedResolvedTo?: 'YES' | 'NO' | 'TIE'; proposedAt?: number; liveness?: number;
}
export type UserPositionsResponse = { first: number; last: number; limit: number; total: number; data: UserPosition[] };
export type UserPositionsParams = { status?: 'DRAFT' | 'ACTIVE' | 'RESOLVED'; id?: Uuid; eventId?: Uuid; title?: string; page?: number; limit?: number; sortBy?: 'latest' | 'current' | 'initial' | 'return'; order?: 'ASC' | 'DESC' };
export type UserPositionValue = { user: string; value: number };
export type UserActivity = Activity & { displayName: string | null; isMultiMarket: boolean; eventId?: Uuid | null; eventName?: string | null };
export type UserActivityParams = {
  term?: string; name?: string; market?: Uuid; types?: readonly ('BUY' | 'SELL' | 'SPLIT' | 'MERGE' | 'REDEEM')[]; fromTimestamp?: number; toTimestamp?: number;
  page?: number; limit?: number; total?: boolean; sortBy?: string; order?: 'ASC' | 'DESC';
};
export type MergeablePosition = RedeemablePosition;
export type BatchMergeResponse = BatchRedeemResponse;

export interface UserRewardsMarketBreakdown { marketId: Uuid; marketSlug: string | null; marketName: string | null; marketDisplayName: string | null; earnedSoFarUsdc: Usd; pendingSettlement: boolean; estimatedRewardUsdc: Usd | null }
export interface YesterdayMarketPayout { marketId: Uuid; marketSlug: string | null; marketName: string | null; marketDisplayName: string | null; amountUsdc: Usd; status: string; txHash?: string }
export interface UserRewardsSummary {
  todayByMarket: UserRewardsMarketBreakdown[]; earnedSoFarUsdc: Usd; pendingSettlementTotalUsdc: Usd; yesterdaySettled: { totalPaidUsdc: Usd; perMarket: YesterdayMarketPayout[] };
  claimableUsdc: Usd; allTimeEarnedUsdc: Usd; claimInFlight: boolean; minPayoutUsdc: Usd; canClaim: boolean;
}
export interface QualifyingOrder { orderId: Uuid; marketId: Uuid; marketName: string | null; marketDisplayName: string | null; outcome: string | null; outcomeIndex: number | null; side: 'BUY' | 'SELL'; price: number; sizeUsdc: Usd }
export interface UserPayoutHistoryItem {
  marketId: Uuid; marketSlug: string | null; marketName: string | null; marketDisplayName: string | null; epochDate: string;
  earnedUsdc: Usd; carriedInUsdc: Usd; amountUsdc: Usd; status: string; txHash?: string; paidAt?: string;
}
export type UserPayoutHistoryPage = Paged<UserPayoutHistoryItem>;
export interface RewardBoostWindow { startAt: string; endAt: string; multiplier: string }
export interface MarketReward {
  marketId: Uuid; marketSlug: string | null; marketName: string | null; marketDisplayName: string | null; rewardUsdc: Usd | null; rewardStatus: 'ACCRUING' | 'SCHEDULED'; accruingNow: boolean;
  rewardStartAt: string | null; rewardEndAt: string | null; maxDistanceFromMid: string; extremeMaxDistanceFromMid: string; minOrderSizeUsdc: Usd;
  boostWindows: RewardBoostWindow[]; activeBoostWindow: RewardBoostWindow | null; currentBoostMultiplier: string;
}
export type MarketRewardDetail = MarketReward & { eventId: Uuid | null; eventSlug: string | null; eventName: string | null; isMultiMarket: boolean; isActive: boolean };
export interface PublicRewardsMarketPoolPage { first: number; last: number; limit: number; total: number; totalRewardUsdc: Usd; data: { eventId: Uuid | null; eventName: string | null; eventSlug: string | null; isMultiMarket: boolean; markets: MarketReward[] }[] }
export interface RewardsLeaderboardEntry { rank: number; userId: Uuid; displayName?: string; anonymous?: boolean; isCurrentUser: boolean; earnedUsdc: Usd }
export interface RewardsLeaderboardResponse { first: number; last: number; limit: number; total: number; data: RewardsLeaderboardEntry[]; window: '24h' | 'week' | 'all'; currentUser?: RewardsLeaderboardEntry | null }
export interface ClaimResponse { accepted: boolean; outcome: string; claimableAmountUsdc: Usd; recipientCount: number; rowCount: number; pollUrl?: string; message?: string }

export interface PublicProfileSummary { positionsValue: Usd; biggestWin: Usd; predictions: number; rewardsUsd: Usd; rewardsCount: number; allTimePnl: Usd }
export type PnlRange = '1D' | '1W' | '1M' | '1Y' | 'YTD' | 'ALL';
export interface PnlHistory { range: PnlRange; points: { time: number; value: number }[]; value: Usd }
interface ProfilePosition { id: string; market: string; eventName?: string; isMultiMarket: boolean; isSeriesLayout: boolean; image?: string; eventImage?: string; slug?: string; side: 'SIDE_A' | 'SIDE_B'; avg: number; bet: Usd }
export type ActiveProfilePosition = ProfilePosition & { shares: number; now: number; value: Usd; changePct: number };
export type ClosedProfilePosition = ProfilePosition & { exit: number; pnl: Usd; pnlPct: number };
export interface PublicProfileActivity { id: string; action: 'bought' | 'sold'; side: 'SIDE_A' | 'SIDE_B'; market: string; eventName?: string; isMultiMarket: boolean; image?: string; eventImage?: string; slug?: string; amount: Usd; price: number; timestamp: number }
