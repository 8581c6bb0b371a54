import { ExchangeError, formatUnits, parseUnits, type ExchangeClient } from '../client/index.ts';
import { DAY_MS, utcDate } from '../core/rewards/index.ts';

/**
 * The demo's maker rewards (EXTENSIONS.md section 5), so that the rewards page, a maker's
 * qualifying orders and the daily payouts have something to show: every market the demo makers
 * quote pays a daily pool, within the makers' spread (they quote two ticks from the midpoint) and
 * below their size (25 shares). Today's and tomorrow's pools are configured ahead, since a day's
 * configuration is frozen once the day opens, and the treasury is funded for each as it is.
 */
export const DEMO_REWARDS = { rewardUsdc: '20', maxDistanceFromMid: '0.03', minOrderSizeUsdc: '1' } as const;

export class DemoRewards {
  /** `<marketId>@<date>` configured by this run (a restarted demo configures them again: the same values). */
  private readonly configured = new Set<string>();

  constructor(private readonly admin: ExchangeClient) {}

  /**
   * Pools for today and tomorrow (UTC, by `nowMs`) on each of these markets that lacks them, and
   * the treasury funded for the pools this call configured, once each. A day whose configuration
   * is frozen (409: the operator's, or an earlier run's, already in force) is left as it is and
   * costs the treasury nothing; a market refused otherwise is tried again at the next call.
   */
  async ensure(marketIds: readonly string[], nowMs: number): Promise<void> {
    let pools = 0n;
    try {
      for (const date of [utcDate(nowMs), utcDate(nowMs + DAY_MS)]) {
        for (const marketId of marketIds.filter((id) => !this.configured.has(`${id}@${date}`))) {
          if (await this.configure(marketId, date)) pools++;
          this.configured.add(`${marketId}@${date}`);
        }
      }
    } finally {
      if (pools > 0n) await this.admin.admin.fundRewardTreasury(formatUnits(parseUnits(DEMO_REWARDS.rewardUsdc)! * pools));
    }
  }

  /** True when this call configured the pool; false when the day's configuration was frozen already. */
  private async configure(marketId: string, date: string): Promise<boolean> {
    try {
      await this.admin.admin.configureRewards(marketId, { date, ...DEMO_REWARDS });
      return true;
    } catch (error) {
      if (error instanceof ExchangeError && error.status === 409) return false;
      throw error;
    }
  }
}
