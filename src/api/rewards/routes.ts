import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { notFound } from '../../contract/errors.ts';
import { requireCaller } from '../auth/caller.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import {
  ClaimResponse, LeaderboardQuery, MarketRewardDetail, PayoutHistoryPage, PayoutHistoryQuery, PublicRewardsMarketPoolPage, QualifyingOrder, RewardPoolsQuery, RewardsLeaderboardResponse,
  UserRewardsSummary,
} from '../../contract/rewards.ts';
import type { TypedApp } from '../typed-app.ts';
import { RollingLimit } from '../limits/rolling-limit.ts';

const user = { config: { auth: 'jwtOrApiKey' as const } };
const userSecurity: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];
/** SPEC.md clamps these limits rather than refusing them. */
const clamp = (value: number, max: number) => Math.min(value, max);

/** SPEC.md section 4.7: the caller's rewards, the public pools and leaderboard, and claims. */
export function registerRewardRoutes(api: TypedApp, ctx: AppContext): void {
  const reads = ctx.rewards.reads;
  // The claim limit (SPEC.md section 8, EXTENSIONS.md section 5): six a minute per user.
  const limiter = new RollingLimit(ctx.sharedState.counters, ctx.clock, { counted: 'claims', limit: 6, windowMs: 60_000, refusal: 'at most 6 claims per minute' });

  api.get('/rewards/me/summary', {
    ...user,
    schema: { tags: ['rewards'], summary: "The caller's rewards: today, yesterday, claimable, lifetime", security: userSecurity, response: { 200: UserRewardsSummary, ...errorResponses(401) } },
  }, async (request) => reads.summary(requireCaller(request).userId));

  api.get('/rewards/me/qualifying-orders', {
    ...user,
    schema: { tags: ['rewards'], summary: "The caller's resting orders that earn rewards now", security: userSecurity, response: { 200: Type.Array(QualifyingOrder), ...errorResponses(401) } },
  }, async (request) => reads.qualifyingOrders(requireCaller(request).userId));

  api.get('/rewards/me/history', {
    ...user,
    schema: {
      tags: ['rewards'], summary: "The caller's daily payout rows, newest first", security: userSecurity,
      querystring: PayoutHistoryQuery,
      response: { 200: PayoutHistoryPage, ...errorResponses(400, 401) },
    },
  }, async (request) => reads.history(requireCaller(request).userId, request.query.page, request.query.limit, request.query.total));

  api.get('/rewards/markets/pools', {
    schema: {
      tags: ['rewards'], summary: 'Current reward opportunities, grouped by event',
      querystring: RewardPoolsQuery,
      response: { 200: PublicRewardsMarketPoolPage, ...errorResponses(400) },
    },
  }, async (request) => reads.pools(request.query.page, clamp(request.query.limit, 50), request.query.search || undefined));

  api.get('/rewards/markets/:marketId/pool', {
    schema: {
      tags: ['rewards'], summary: "A market's current reward opportunity",
      params: MarketIdParams,
      response: { 200: MarketRewardDetail, ...errorResponses(400, 404) },
    },
  }, async (request) => {
    const pool = await reads.pool(request.params.marketId);
    if (!pool) throw notFound('reward opportunity');
    return pool;
  });

  api.get('/rewards/leaderboard', {
    config: { auth: 'optionalUser' },
    schema: {
      tags: ['rewards'], summary: 'Makers ranked by reward earnings over UTC reward dates',
      querystring: LeaderboardQuery,
      response: { 200: RewardsLeaderboardResponse, ...errorResponses(400, 401) },
    },
  }, async (request) => reads.leaderboard(request.query.window, request.query.page, clamp(request.query.limit, 100), request.caller?.userId));

  api.post('/rewards/me/claim', {
    // Paid from the treasury on the engine's node, where every balance moves (a follower passes it on).
    config: { ...user.config, engineCommand: true },
    schema: { tags: ['rewards'], summary: 'Claim every claimable reward row (asynchronous payout)', security: userSecurity, response: { 200: ClaimResponse, ...errorResponses(401, 429, 503) } },
  }, async (request) => {
    const caller = requireCaller(request);
    await limiter.take(caller.userId);
    return ctx.rewards.claims.claim({ userId: caller.userId, proxyWallet: caller.proxyWallet });
  });
}
