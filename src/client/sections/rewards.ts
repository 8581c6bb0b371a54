import type {
  ClaimResponse, MarketRewardDetail, PublicRewardsMarketPoolPage, QualifyingOrder, RewardsLeaderboardResponse, UserPayoutHistoryPage, UserRewardsSummary,
} from '../spec-types.ts';
import type { ClientContext } from './context.ts';

/** Maker rewards (SPEC.md 4.7), following SPEC.md until the routes land (types in spec-types.ts, no tests yet). */
export function rewardsSection({ transport }: ClientContext) {
  const mine = <T>(path: string, query?: Record<string, number | boolean | undefined>) => transport.call<T>('GET', `/rewards/me${path}`, { auth: 'jwtOrApiKey', ...(query ? { query } : {}) });
  return {
    summary: () => mine<UserRewardsSummary>('/summary'),
    qualifyingOrders: () => mine<QualifyingOrder[]>('/qualifying-orders'),
    history: (params: { page?: number; limit?: number; total?: boolean } = {}) => mine<UserPayoutHistoryPage>('/history', params),
    /** Claims every claimable row. Not retried: the server's answer says whether it dispatched. */
    claim: () => transport.call<ClaimResponse>('POST', '/rewards/me/claim', { auth: 'jwtOrApiKey' }),
    pools: (params: { page?: number; limit?: number; search?: string } = {}) => transport.call<PublicRewardsMarketPoolPage>('GET', '/rewards/markets/pools', { query: params }),
    pool: (marketId: string) => transport.call<MarketRewardDetail>('GET', `/rewards/markets/${encodeURIComponent(marketId)}/pool`),
    leaderboard: (params: { window?: '24h' | 'week' | 'all'; page?: number; limit?: number } = {}) => transport.call<RewardsLeaderboardResponse>('GET', '/rewards/leaderboard', { query: params }),
  };
}
