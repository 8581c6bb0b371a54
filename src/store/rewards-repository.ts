import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database.ts';
import type { RewardClaimsTable, RewardConfigsTable, RewardPayoutsTable, RewardPayoutStatus } from './schema.ts';

/** Maker liquidity rewards (migration 0013_rewards): configurations, accruals, payouts, claims. */
export type RewardConfigRow = Selectable<RewardConfigsTable>;
export type RewardPayoutRow = Selectable<RewardPayoutsTable>;
export type RewardClaimRow = Selectable<RewardClaimsTable>;

/** A configuration with the market fields the sampler and the pool listings need. */
export interface RewardConfigWithMarket extends RewardConfigRow {
  market_status: string;
  market_slug: string;
  market_name: string;
  event_id: string;
  event_slug: string;
  event_name: string;
  event_single: boolean;
  market_hidden: boolean;
  market_paused: boolean;
  outcome1: string;
  outcome2: string;
}

const PAUSED_KEY = 'rewards_paused';
/** Rows a claim takes: unpaid and not in another claim. FAILED rows are claimable again. */
export const CLAIMABLE_STATUSES: RewardPayoutStatus[] = ['PENDING', 'CARRIED', 'FAILED'];

export async function findMarketStatus(db: Db, marketId: string): Promise<{ id: string; status: string } | undefined> {
  return db.selectFrom('markets').select(['id', 'status']).where('id', '=', marketId).executeTakeFirst();
}

export async function findRewardConfig(db: Db, marketId: string, date: string): Promise<RewardConfigRow | undefined> {
  return db.selectFrom('reward_configs').selectAll().where('market_id', '=', marketId).where('reward_date', '=', date).executeTakeFirst();
}

export async function upsertRewardConfig(db: Db, row: Insertable<RewardConfigsTable>): Promise<void> {
  // What the sampler and the close recorded is theirs: an update never resets it.
  const { market_id: _m, reward_date: _d, created_at: _c, sampled_through_minute: _s, closed_at: _x, ...changes } = row;
  await db.insertInto('reward_configs').values(row)
    .onConflict((oc) => oc.columns(['market_id', 'reward_date']).doUpdateSet(changes))
    .execute();
}

function configsWithMarkets(db: Db) {
  return db.selectFrom('reward_configs as c')
    .innerJoin('markets as m', 'm.id', 'c.market_id')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .selectAll('c')
    .select(['m.status as market_status', 'm.slug as market_slug', 'm.name as market_name', 'm.hidden as market_hidden', 'm.is_paused as market_paused', 'm.outcome1', 'm.outcome2', 'e.id as event_id', 'e.slug as event_slug', 'e.name as event_name', 'e.single as event_single']);
}

/** Configurations whose day has not been closed yet, oldest date first. */
export async function listOpenRewardConfigs(db: Db): Promise<RewardConfigWithMarket[]> {
  return configsWithMarkets(db).where('c.closed_at', 'is', null).orderBy('c.reward_date').orderBy('c.market_id').execute();
}

/** The configurations of one UTC date (optionally of some markets only), with their markets. */
export async function listRewardConfigsOfDate(db: Db, date: string, marketIds?: string | string[]): Promise<RewardConfigWithMarket[]> {
  let query = configsWithMarkets(db).where('c.reward_date', '=', date);
  if (marketIds !== undefined) {
    const ids = typeof marketIds === 'string' ? [marketIds] : marketIds;
    if (ids.length === 0) return [];
    query = query.where('c.market_id', 'in', ids);
  }
  return query.orderBy('e.created_at', 'desc').orderBy('e.id').orderBy('m.position').execute();
}

export async function isRewardsPaused(db: Db): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', PAUSED_KEY).executeTakeFirst();
  return row?.value === 'true';
}

export async function setRewardsPaused(db: Db, paused: boolean): Promise<void> {
  await db.insertInto('settings').values({ key: PAUSED_KEY, value: String(paused) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(paused) })).execute();
}

/**
 * Adds earned amounts to the makers' accruals: one `unnest` upsert per chunk, four array
 * parameters whatever the number of rows (a multi-row VALUES list costs a parameter per cell).
 */
export async function addRewardAccruals(db: Db, rows: { market_id: string; reward_date: string; user_id: string; amount_base_units: bigint }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 20_000) {
    const chunk = rows.slice(i, i + 20_000);
    await sql`INSERT INTO reward_accruals (market_id, reward_date, user_id, amount_base_units)
      SELECT * FROM unnest(${chunk.map((r) => r.market_id)}::uuid[], ${chunk.map((r) => r.reward_date)}::text[], ${chunk.map((r) => r.user_id)}::uuid[], ${chunk.map((r) => r.amount_base_units.toString())}::bigint[])
      ON CONFLICT (market_id, reward_date, user_id) DO UPDATE SET amount_base_units = reward_accruals.amount_base_units + excluded.amount_base_units`.execute(db);
  }
}

/** Records, for many configurations in one statement, the last minute the sampler has handled. */
export async function markRewardsSampled(db: Db, marks: { marketId: string; date: string; minute: number }[]): Promise<void> {
  if (marks.length === 0) return;
  await sql`UPDATE reward_configs c SET sampled_through_minute = v.minute
    FROM unnest(${marks.map((m) => m.marketId)}::uuid[], ${marks.map((m) => m.date)}::text[], ${marks.map((m) => String(m.minute))}::bigint[]) AS v(market_id, reward_date, minute)
    WHERE c.market_id = v.market_id AND c.reward_date = v.reward_date`.execute(db);
}

/** The accruals of several market-days (one UTC date), in one statement. */
export async function listAccrualsOfDays(db: Db, date: string, marketIds: string[]): Promise<{ market_id: string; user_id: string; amount_base_units: bigint }[]> {
  if (marketIds.length === 0) return [];
  const result = await sql<{ market_id: string; user_id: string; amount_base_units: bigint }>`
    SELECT a.market_id, a.user_id, a.amount_base_units FROM reward_accruals a
    JOIN unnest(${marketIds}::uuid[]) AS v(market_id) ON a.market_id = v.market_id
    WHERE a.reward_date = ${date} AND a.amount_base_units > 0
    ORDER BY a.market_id, a.user_id`.execute(db);
  return result.rows.map((r) => ({ ...r, amount_base_units: BigInt(r.amount_base_units) }));
}

/** The unclaimed CARRIED rows of these markets, locked: the next row of each market rolls them up. */
export async function lockCarriedRows(db: Db, marketIds: string[]): Promise<RewardPayoutRow[]> {
  if (marketIds.length === 0) return [];
  return db.selectFrom('reward_payouts').selectAll().where('market_id', 'in', marketIds).where('status', '=', 'CARRIED').where('claim_id', 'is', null).forUpdate().execute();
}

export async function setPayoutStatus(db: Db, ids: string[], status: RewardPayoutStatus): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('reward_payouts').set({ status }).where('id', 'in', ids).execute();
}

/** New payout rows, one `unnest` insert per chunk. */
export async function insertPayouts(db: Db, rows: Insertable<RewardPayoutsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 20_000) {
    const chunk = rows.slice(i, i + 20_000);
    const column = <T>(pick: (r: Insertable<RewardPayoutsTable>) => T) => chunk.map(pick);
    await sql`INSERT INTO reward_payouts (id, user_id, market_id, reward_date, earned_base_units, carried_in_base_units, amount_base_units, status, created_at)
      SELECT * FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.user_id)}::uuid[], ${column((r) => r.market_id)}::uuid[], ${column((r) => r.reward_date)}::text[],
        ${column((r) => String(r.earned_base_units))}::bigint[], ${column((r) => String(r.carried_in_base_units))}::bigint[], ${column((r) => String(r.amount_base_units))}::bigint[],
        ${column((r) => r.status)}::text[], ${column((r) => (r.created_at as Date).toISOString())}::timestamptz[])`.execute(db);
  }
}

export async function markRewardDaysClosed(db: Db, date: string, marketIds: string[], at: Date): Promise<void> {
  if (marketIds.length === 0) return;
  await db.updateTable('reward_configs').set({ closed_at: at }).where('reward_date', '=', date).where('market_id', 'in', marketIds).execute();
}

/** The user's claimable rows, locked so that concurrent claims see them taken. */
export async function lockClaimableRows(db: Db, userId: string): Promise<RewardPayoutRow[]> {
  return db.selectFrom('reward_payouts').selectAll().where('user_id', '=', userId).where('status', 'in', CLAIMABLE_STATUSES).where('claim_id', 'is', null).orderBy('id').forUpdate().execute();
}

export async function claimableTotal(db: Db, userId: string): Promise<bigint> {
  const row = await db.selectFrom('reward_payouts').select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>('amount_base_units'), sql<bigint>`0`).as('total'))
    .where('user_id', '=', userId).where('status', 'in', CLAIMABLE_STATUSES).where('claim_id', 'is', null).executeTakeFirstOrThrow();
  return BigInt(row.total);
}

export async function insertClaim(db: Db, row: Insertable<RewardClaimsTable>): Promise<void> {
  await db.insertInto('reward_claims').values(row).execute();
}

export async function attachRowsToClaim(db: Db, claimId: string, rowIds: string[]): Promise<void> {
  await db.updateTable('reward_payouts').set({ claim_id: claimId }).where('id', 'in', rowIds).execute();
}

export async function findUnfinishedClaim(db: Db, userId: string): Promise<RewardClaimRow | undefined> {
  return db.selectFrom('reward_claims').selectAll().where('user_id', '=', userId).where('state', 'in', ['dispatched', 'in-flight']).executeTakeFirst();
}

export async function listUnfinishedClaims(db: Db): Promise<RewardClaimRow[]> {
  return db.selectFrom('reward_claims').selectAll().where('state', 'in', ['dispatched', 'in-flight']).orderBy('created_at').execute();
}

/** Locks a claim row so one dispatcher at a time finishes it. */
export async function lockClaim(db: Db, claimId: string): Promise<RewardClaimRow | undefined> {
  return db.selectFrom('reward_claims').selectAll().where('id', '=', claimId).forUpdate().executeTakeFirst();
}

export async function updateClaim(db: Db, claimId: string, changes: Partial<Pick<RewardClaimRow, 'state' | 'tx_hash' | 'error' | 'updated_at'>>): Promise<void> {
  await db.updateTable('reward_claims').set(changes).where('id', '=', claimId).execute();
}

/** Settles a claim's rows: PAID with the transaction, or another status with the claim detached. */
export async function finishClaimRows(db: Db, claimId: string, outcome: { status: 'PAID'; txHash: string; paidAt: Date } | { status: 'FAILED' | 'NEEDS_INVESTIGATION' }): Promise<void> {
  const changes = outcome.status === 'PAID'
    ? { status: outcome.status, tx_hash: outcome.txHash, paid_at: outcome.paidAt }
    : { status: outcome.status, claim_id: outcome.status === 'FAILED' ? null : claimId };
  await db.updateTable('reward_payouts').set(changes).where('claim_id', '=', claimId).execute();
}

/** The rows the treasury could not cover (NEEDS_INVESTIGATION), claimable again (FAILED, no claim). How many. */
export async function reopenUncoveredPayouts(db: Db): Promise<number> {
  const result = await db.updateTable('reward_payouts').set({ status: 'FAILED', claim_id: null }).where('status', '=', 'NEEDS_INVESTIGATION').executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Unclosed accruals of a user with their markets (today's earnings so far). */
export async function listUserOpenAccruals(db: Db, userId: string) {
  return db.selectFrom('reward_accruals as a')
    .innerJoin('reward_configs as c', (j) => j.onRef('c.market_id', '=', 'a.market_id').onRef('c.reward_date', '=', 'a.reward_date'))
    .innerJoin('markets as m', 'm.id', 'a.market_id')
    .select(['a.market_id', 'a.reward_date', 'a.amount_base_units', 'm.slug', 'm.name', 'm.status', 'm.is_resolved'])
    .where('a.user_id', '=', userId).where('c.closed_at', 'is', null).where('a.amount_base_units', '>', 0n)
    .execute();
}

export interface PayoutWithMarket extends RewardPayoutRow {
  market_slug: string;
  market_name: string;
}

export async function listUserPayouts(db: Db, userId: string, page: { limit: number; offset: number; date?: string }): Promise<PayoutWithMarket[]> {
  let query = db.selectFrom('reward_payouts as p').innerJoin('markets as m', 'm.id', 'p.market_id')
    .selectAll('p').select(['m.slug as market_slug', 'm.name as market_name'])
    .where('p.user_id', '=', userId);
  if (page.date) query = query.where('p.reward_date', '=', page.date);
  return query.orderBy('p.reward_date', 'desc').orderBy('p.market_id').limit(page.limit).offset(page.offset).execute();
}

export async function countUserPayouts(db: Db, userId: string, cap: number): Promise<number> {
  const rows = await db.selectFrom('reward_payouts').select('id').where('user_id', '=', userId).limit(cap + 1).execute();
  return rows.length;
}

/** Lifetime earnings: every closed row that was not cancelled, plus what accrues in unclosed days. */
export async function userLifetimeEarned(db: Db, userId: string): Promise<bigint> {
  const closed = await db.selectFrom('reward_payouts').select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>('earned_base_units'), sql<bigint>`0`).as('total'))
    .where('user_id', '=', userId).where('status', '!=', 'CANCELLED').executeTakeFirstOrThrow();
  return BigInt(closed.total);
}

/** What a user was paid in rewards: the total and the number of paid rows (one per market and day). */
export async function userPaidRewards(db: Db, userId: string): Promise<{ total: bigint; count: number }> {
  const paid = await db.selectFrom('reward_payouts')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<bigint>('amount_base_units'), sql<bigint>`0`).as('total'), eb.fn.countAll<number>().as('count')])
    .where('user_id', '=', userId).where('status', '=', 'PAID').executeTakeFirstOrThrow();
  return { total: BigInt(paid.total), count: Number(paid.count) };
}

/**
 * Earnings per user over reward dates [fromDate, toDate] (all dates when fromDate is undefined):
 * closed rows (not cancelled) plus accruals of days not closed yet, largest first, ties by user id.
 */
export async function leaderboardTotals(db: Db, fromDate: string | undefined): Promise<{ user_id: string; earned: bigint; display_name: string | null; anonymous: boolean }[]> {
  const dateFilter = fromDate ? sql`AND reward_date >= ${fromDate}` : sql``;
  const result = await sql<{ user_id: string; earned: string; display_name: string | null; anonymous: boolean }>`
    SELECT t.user_id, SUM(t.amount)::text AS earned, u.display_name, u.anonymous
    FROM (
      SELECT user_id, earned_base_units AS amount FROM reward_payouts WHERE status <> 'CANCELLED' ${dateFilter}
      UNION ALL
      SELECT a.user_id, a.amount_base_units FROM reward_accruals a
        JOIN reward_configs c ON c.market_id = a.market_id AND c.reward_date = a.reward_date
        WHERE c.closed_at IS NULL ${fromDate ? sql`AND a.reward_date >= ${fromDate}` : sql``}
    ) t JOIN users u ON u.id = t.user_id
    GROUP BY t.user_id, u.display_name, u.anonymous
    HAVING SUM(t.amount) > 0
    ORDER BY SUM(t.amount) DESC, t.user_id`.execute(db);
  return result.rows.map((r) => ({ ...r, earned: BigInt(r.earned) }));
}
