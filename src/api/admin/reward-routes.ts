import { formatUnits } from '../../core/money.ts';
import { RewardConfigError, RewardConfigRefused } from '../../rewards/index.ts';
import { REWARD_TREASURY } from '../../settlement/accounts.ts';
import type { AppContext } from '../context.ts';
import { AppError, badRequest, conflict, notFound, outcomeOrThrow } from '../../contract/errors.ts';
import { RewardsPauseSchema, TreasuryBalanceSchema, TreasuryDepositBody } from '../../contract/admin.ts';
import { errorResponses, MarketIdParams } from '../../contract/common.ts';
import { MarketRewardDetail, RewardConfigInput } from '../../contract/rewards.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';

/**
 * The rewards admin routes (EXTENSIONS.md sections 3 and 5): a market's configuration for a UTC
 * date, the global pause, and deposits into the reward treasury every payout comes from.
 */
export function registerRewardAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.put('/admin/markets/:marketId/rewards', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: "Set a market's reward configuration for a UTC date (frozen once its window opens, except enabled)",
      security: [{ bearer: [] }],
      params: MarketIdParams,
      body: RewardConfigInput,
      response: { 200: MarketRewardDetail, ...errorResponses(400, 401, 404, 409) },
    },
  }, async (request) => {
    try {
      return await ctx.rewards.putConfig(request.params.marketId, request.body);
    } catch (error) {
      if (error instanceof RewardConfigError) throw badRequest(error.message);
      if (error instanceof RewardConfigRefused) {
        if (error.reason === 'not-found') throw notFound('market');
        if (error.reason === 'frozen') throw conflict(error.message);
        throw new AppError('MARKET_NOT_TRADABLE', error.message);
      }
      throw error;
    }
  });

  api.post('/admin/rewards/pause', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Pause or resume reward accrual everywhere',
      security: [{ bearer: [] }],
      body: RewardsPauseSchema,
      response: { 200: RewardsPauseSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    await ctx.rewards.setPaused(request.body.paused);
    return { paused: request.body.paused };
  });

  api.post('/admin/rewards/treasury', {
    config: { auth: 'admin', engineCommand: true },
    schema: {
      tags: ['admin'],
      summary: 'Deposit collateral into the reward treasury',
      description: 'Payout rows a claim found the treasury short for (NEEDS_INVESTIGATION) become claimable again (FAILED).',
      security: [{ bearer: [] }],
      body: TreasuryDepositBody,
      response: { 200: TreasuryBalanceSchema, ...errorResponses(400, 401, 409, 503) },
    },
  }, async (request) => {
    const amount = positiveAmount(request.body.amount);
    // Once per idempotencyKey, as admin credits: each deposit raises what reward payouts, which a chain pays from the operator, may take.
    const { idempotencyKey } = request.body;
    const deposit = { account: REWARD_TREASURY, amount, reason: 'TREASURY_DEPOSIT', ref: 'admin-treasury-deposit', ...(idempotencyKey ? { idempotencyKey } : {}) } as const;
    const { balance } = outcomeOrThrow(await ctx.trading.engine.credit(deposit));
    await ctx.rewards.claims.treasuryFunded();
    return { balance: formatUnits(balance) };
  });
}
