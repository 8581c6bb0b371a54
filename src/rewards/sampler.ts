import { makerScores, minuteBudget, MINUTE_MS, splitBudget, windowMinutes, type RestingQuote } from '../core/rewards/index.ts';
import type { Db } from '../store/database.ts';
import { addRewardAccruals, markRewardsSampled, type RewardConfigWithMarket } from '../store/rewards-repository.ts';
import { scoringParamsOf, windowOf } from './config.ts';

export interface SampleInput {
  configs: readonly RewardConfigWithMarket[];
  quotesByMarket: ReadonlyMap<string, readonly RestingQuote[]>;
  paused: boolean;
  nowMs: number;
}

/**
 * Samples every open configuration up to the current minute, minute by minute from the last one
 * it handled: when the clock jumps (a restart, the manual clock) each missed minute gets its own
 * budget and split, on the book as it stands. Minutes that are paused, disabled or of a market no
 * longer ACTIVE (resolved markets stop earning) are marked handled and pay nobody. The book does
 * not change during one pass, so scores are computed once per market and minutes with equal
 * budgets are split once. Returns the number of market samples taken.
 */
export async function sampleRewards(db: Db, input: SampleInput): Promise<number> {
  const nowMinute = Math.floor(input.nowMs / MINUTE_MS);
  const accruals: { market_id: string; reward_date: string; user_id: string; amount_base_units: bigint }[] = [];
  const marks: { marketId: string; date: string; minute: number }[] = [];
  let samples = 0;
  for (const config of input.configs) {
    const window = windowOf(config);
    const { first, end } = windowMinutes(window);
    const from = Math.max(first, config.sampled_through_minute === null ? first : Number(config.sampled_through_minute) + 1);
    const to = Math.min(end, nowMinute + 1);
    if (from >= to) continue;
    marks.push({ marketId: config.market_id, date: config.reward_date, minute: to - 1 });
    if (input.paused || !config.enabled || config.market_status !== 'ACTIVE') continue;
    const scores = makerScores(input.quotesByMarket.get(config.market_id) ?? [], scoringParamsOf(config));
    if (scores.size === 0) continue;
    samples += to - from;
    const minutesByBudget = new Map<bigint, bigint>();
    for (let k = from; k < to; k++) {
      const budget = minuteBudget(window, k);
      minutesByBudget.set(budget, (minutesByBudget.get(budget) ?? 0n) + 1n);
    }
    const earned = new Map<string, bigint>();
    for (const [budget, minutes] of minutesByBudget) {
      for (const [makerId, share] of splitBudget(budget, scores)) earned.set(makerId, (earned.get(makerId) ?? 0n) + share * minutes);
    }
    for (const [userId, amount] of earned) {
      if (amount > 0n) accruals.push({ market_id: config.market_id, reward_date: config.reward_date, user_id: userId, amount_base_units: amount });
    }
  }
  await db.transaction().execute(async (tx) => {
    await addRewardAccruals(tx, accruals);
    await markRewardsSampled(tx, marks);
  });
  return samples;
}
