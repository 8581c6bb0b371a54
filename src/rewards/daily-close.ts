import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../core/rewards/index.ts';
import type { Db } from '../store/database.ts';
import { insertPayouts, listAccrualsOfDay, lockCarriedRows, markRewardDayClosed, setPayoutStatus, type RewardConfigWithMarket } from '../store/rewards-repository.ts';
import type { RewardPayoutStatus } from '../store/schema.ts';
import { dayStartMs } from './config.ts';

/**
 * Turns each ended UTC day of a configuration into payout rows (after the sampler has handled its
 * last minute), one transaction per market and day:
 * - a maker's CARRIED rows of the same market roll into the new row (ROLLED_UP, their amount in
 *   the new row's `carriedInUsdc`);
 * - the new row is PENDING (claimable) when its amount reaches `minPayoutUsdc`, else CARRIED
 *   (still claimable together with other rows, and carried into the next day's row otherwise);
 * - a configuration disabled when its day closes withdraws the day: its rows are CANCELLED.
 * Returns the number of days closed.
 */
export async function closeEndedDays(db: Db, configs: readonly RewardConfigWithMarket[], nowMs: number, minPayoutBaseUnits: bigint): Promise<number> {
  let closed = 0;
  for (const config of configs) {
    if (dayStartMs(config.reward_date) + DAY_MS > nowMs) continue;
    await db.transaction().execute(async (tx) => {
      const accruals = await listAccrualsOfDay(tx, config.market_id, config.reward_date);
      const carried = config.enabled ? await lockCarriedRows(tx, config.market_id, accruals.map((a) => a.user_id)) : [];
      const createdAt = new Date(nowMs);
      const rows = accruals.map((a) => {
        const mine = carried.filter((row) => row.user_id === a.user_id);
        const carriedIn = mine.reduce((sum, row) => sum + row.amount_base_units, 0n);
        const amount = a.amount_base_units + carriedIn;
        const status: RewardPayoutStatus = !config.enabled ? 'CANCELLED' : amount >= minPayoutBaseUnits ? 'PENDING' : 'CARRIED';
        return { id: randomUUID(), user_id: a.user_id, market_id: config.market_id, reward_date: config.reward_date, earned_base_units: a.amount_base_units, carried_in_base_units: carriedIn, amount_base_units: amount, status, created_at: createdAt };
      });
      await setPayoutStatus(tx, carried.map((row) => row.id), 'ROLLED_UP');
      await insertPayouts(tx, rows);
      await markRewardDayClosed(tx, config.market_id, config.reward_date, createdAt);
    });
    closed++;
  }
  return closed;
}
