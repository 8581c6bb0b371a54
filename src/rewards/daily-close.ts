import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../core/rewards/index.ts';
import type { Db } from '../store/database.ts';
import { insertPayouts, listAccrualsOfDays, lockCarriedRows, markRewardDaysClosed, setPayoutStatus, type RewardConfigWithMarket } from '../store/rewards-repository.ts';
import type { RewardPayoutStatus } from '../store/schema.ts';
import { dayStartMs } from './config.ts';

/**
 * Turns each ended UTC day of the configurations into payout rows (after the sampler has written
 * its last minute), in one transaction, date by date so that a clock jump over several days
 * carries each day into the next:
 * - a maker's CARRIED rows of the same market roll into the new row (ROLLED_UP, their amount in
 *   the new row's `carriedInUsdc`);
 * - the new row is PENDING (claimable) when its amount reaches `minPayoutUsdc`, else CARRIED
 *   (still claimable together with other rows, and carried into the next day's row otherwise);
 * - a configuration disabled when its day closes withdraws the day: its rows are CANCELLED.
 * Returns the number of market-days closed.
 */
export async function closeEndedDays(db: Db, configs: readonly RewardConfigWithMarket[], nowMs: number, minPayoutBaseUnits: bigint): Promise<number> {
  const byDate = new Map<string, RewardConfigWithMarket[]>();
  for (const config of configs) {
    if (dayStartMs(config.reward_date) + DAY_MS > nowMs) continue;
    byDate.set(config.reward_date, [...(byDate.get(config.reward_date) ?? []), config]);
  }
  if (byDate.size === 0) return 0;
  const createdAt = new Date(nowMs);
  await db.transaction().execute(async (tx) => {
    for (const date of [...byDate.keys()].sort()) {
      const day = byDate.get(date)!;
      const enabled = new Map(day.map((c) => [c.market_id, c.enabled]));
      const accruals = await listAccrualsOfDays(tx, date, day.map((c) => c.market_id));
      const carried = await lockCarriedRows(tx, day.filter((c) => c.enabled).map((c) => c.market_id));
      const carriedOf = new Map<string, { ids: string[]; amount: bigint }>();
      for (const row of carried) {
        const key = `${row.market_id}|${row.user_id}`;
        const entry = carriedOf.get(key) ?? { ids: [], amount: 0n };
        entry.ids.push(row.id);
        entry.amount += row.amount_base_units;
        carriedOf.set(key, entry);
      }
      const rolledUp: string[] = [];
      const rows = accruals.map((a) => {
        const isEnabled = enabled.get(a.market_id)!;
        const mine = isEnabled ? carriedOf.get(`${a.market_id}|${a.user_id}`) : undefined;
        if (mine) rolledUp.push(...mine.ids);
        const amount = a.amount_base_units + (mine?.amount ?? 0n);
        const status: RewardPayoutStatus = !isEnabled ? 'CANCELLED' : amount >= minPayoutBaseUnits ? 'PENDING' : 'CARRIED';
        return { id: randomUUID(), user_id: a.user_id, market_id: a.market_id, reward_date: date, earned_base_units: a.amount_base_units, carried_in_base_units: mine?.amount ?? 0n, amount_base_units: amount, status, created_at: createdAt };
      });
      await setPayoutStatus(tx, rolledUp, 'ROLLED_UP');
      await insertPayouts(tx, rows);
      await markRewardDaysClosed(tx, date, day.map((c) => c.market_id), createdAt);
    }
  });
  return [...byDate.values()].reduce((n, day) => n + day.length, 0);
}
