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

export interface Samples {
  accruals: { market_id: string; reward_date: string; user_id: string; amount_base_units: bigint }[];
  /** The last minute handled, per configuration that moved. */
  marks: { marketId: string; date: string; minute: number }[];
  /** Market-minutes that paid someone. */
  count: number;
}

/**
 * Samples every open configuration up to the current minute, minute by minute from the last one
 * it handled: when the clock jumps (a restart, the manual clock) each missed minute gets its own
 * budget and split, on the book as it stands. Minutes that are paused (globally or the market),
 * disabled, or of a market no longer ACTIVE (resolved markets stop earning) are marked handled
 * and pay nobody. The book does
 * not change during one pass, so scores are computed once per market and minutes with equal
 * budgets are split once. Pure: the caller stores the result (see AccrualBuffer).
 */
export function sampleRewards(input: SampleInput): Samples {
  const nowMinute = Math.floor(input.nowMs / MINUTE_MS);
  const samples: Samples = { accruals: [], marks: [], count: 0 };
  for (const config of input.configs) {
    const window = windowOf(config);
    const { first, end } = windowMinutes(window);
    const from = Math.max(first, config.sampled_through_minute === null ? first : Number(config.sampled_through_minute) + 1);
    const to = Math.min(end, nowMinute + 1);
    if (from >= to) continue;
    samples.marks.push({ marketId: config.market_id, date: config.reward_date, minute: to - 1 });
    if (input.paused || !config.enabled || config.market_status !== 'ACTIVE' || config.market_paused) continue;
    const scores = makerScores(input.quotesByMarket.get(config.market_id) ?? [], scoringParamsOf(config));
    if (scores.size === 0) continue;
    samples.count += to - from;
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
      if (amount > 0n) samples.accruals.push({ market_id: config.market_id, reward_date: config.reward_date, user_id: userId, amount_base_units: amount });
    }
  }
  return samples;
}

/**
 * Samples waiting to be stored. Writing every maker's accrual every minute is the sampler's whole
 * cost (50,000 upserts a minute for 1,000 markets of 50 makers), so passes add up here and are
 * written together, with the minutes they cover, in one transaction. A crash loses the unwritten
 * minutes and their marks together, so the next start samples those minutes again: nothing is
 * paid twice or skipped.
 */
export class AccrualBuffer {
  private readonly amounts = new Map<string, Samples['accruals'][number]>();
  private readonly marks = new Map<string, Samples['marks'][number]>();
  private oldestMs: number | undefined;

  add(samples: Samples, nowMs: number): void {
    for (const a of samples.accruals) {
      const key = `${a.market_id}|${a.reward_date}|${a.user_id}`;
      const held = this.amounts.get(key);
      if (held) held.amount_base_units += a.amount_base_units;
      else this.amounts.set(key, { ...a });
    }
    for (const m of samples.marks) this.marks.set(`${m.marketId}|${m.date}`, m);
    if (samples.marks.length > 0) this.oldestMs ??= nowMs;
  }

  /** The configurations as stored, with the minutes handled but not written yet. */
  overlay(configs: RewardConfigWithMarket[]): RewardConfigWithMarket[] {
    return configs.map((c) => {
      const mark = this.marks.get(`${c.market_id}|${c.reward_date}`);
      return mark ? { ...c, sampled_through_minute: BigInt(mark.minute) } : c;
    });
  }

  ageMs(nowMs: number): number {
    return this.oldestMs === undefined ? 0 : nowMs - this.oldestMs;
  }

  /**
   * Writes the buffered minutes. `fence` (the engine's, src/cluster) runs first in the transaction:
   * a node that no longer runs the engine must not add minutes its successor samples again.
   */
  async flush(db: Db, fence?: (tx: Db) => Promise<void>): Promise<void> {
    if (this.marks.size === 0) return;
    const accruals = [...this.amounts.values()];
    const marks = [...this.marks.values()];
    await db.transaction().execute(async (tx) => {
      await fence?.(tx);
      await addRewardAccruals(tx, accruals);
      await markRewardsSampled(tx, marks);
    });
    this.discard();
  }

  /** Forgets the buffered minutes: another node samples them again. */
  discard(): void {
    this.amounts.clear();
    this.marks.clear();
    this.oldestMs = undefined;
  }
}
