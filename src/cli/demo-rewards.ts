import { formatUnits, parseUnits, type ExchangeClient } from '../client/index.ts';
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

  /** Pools for today and tomorrow (UTC, by `nowMs`) on each of these markets that lacks them. */
  async ensure(marketIds: readonly string[], nowMs: number): Promise<void> {
    for (const date of [utcDate(nowMs), utcDate(nowMs + DAY_MS)]) {
      const fresh = marketIds.filter((id) => !this.configured.has(`${id}@${date}`));
      if (fresh.length === 0) continue;
      await this.admin.admin.fundRewardTreasury(formatUnits(parseUnits(DEMO_REWARDS.rewardUsdc)! * BigInt(fresh.length)));
      for (const marketId of fresh) {
        await this.admin.admin.configureRewards(marketId, { date, ...DEMO_REWARDS });
        this.configured.add(`${marketId}@${date}`);
      }
    }
  }
}
