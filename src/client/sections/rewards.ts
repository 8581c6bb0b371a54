import type {
  ClaimResponse, MarketRewardDetail, PayoutHistoryPage, PayoutHistoryParams, QualifyingOrder, RewardPoolsPage, RewardPoolsParams, RewardsLeaderboard,
  RewardsLeaderboardParams, UserRewardsSummary,
} from '../types.ts';
import type { ClientContext } from './context.ts';

/** Maker rewards (SPEC.md 4.7): the caller's (session token or API key), the public pools and leaderboard. */
export function rewardsSection({ transport }: ClientContext) {
  const mine = <T>(path: string, query?: PayoutHistoryParams) => transport.call<T>('GET', `/rewards/me${path}`, { auth: 'jwtOrApiKey', ...(query ? { query } : {}) });
  return {
    /** Today's accrual, yesterday's settlement, what is claimable, the lifetime total. */
    summary: () => mine<UserRewardsSummary>('/summary'),
    /** The caller's resting orders that earn rewards now. */
    qualifyingOrders: () => mine<QualifyingOrder[]>('/qualifying-orders'),
    /** Daily payout rows, newest first (default 20, at most 100). */
    history: (params: PayoutHistoryParams = {}) => mine<PayoutHistoryPage>('/history', params),
    /**
     * Claims every claimable row (paid asynchronously; `user-reward-claim-update` follows). Not
     * retried: the answer says whether it dispatched, and a repeat within the limit finds nothing.
     */
    claim: () => transport.call<ClaimResponse>('POST', '/rewards/me/claim', { auth: 'jwtOrApiKey' }),
    /** Current opportunities grouped by event (`limit` clamped to 50). */
    pools: (params: RewardPoolsParams = {}) => transport.call<RewardPoolsPage>('GET', '/rewards/markets/pools', { query: params }),
    /** One market's current opportunity; 404 when it has none. */
    pool: (marketId: string) => transport.call<MarketRewardDetail>('GET', `/rewards/markets/${encodeURIComponent(marketId)}/pool`),
    /** Makers by earnings (`limit` clamped to 100); `currentUser` when the client is signed in. */
    leaderboard: (params: RewardsLeaderboardParams = {}) => transport.call<RewardsLeaderboard>('GET', '/rewards/leaderboard', { auth: 'optionalUser', query: params }),
  };
}
