import { doubledMidpoint, makerScores, notionalBaseUnits, orderScore, type RestingQuote } from '../core/rewards/index.ts';
import type { Db } from '../store/database.ts';
import {
  claimableTotal, countUserPayouts, findUnfinishedClaim, isRewardsPaused, leaderboardTotals, listRewardConfigsOfDate,
  listUserOpenAccruals, listUserPayouts, userLifetimeEarned,
} from '../store/rewards-repository.ts';
import { DAY_MS } from '../core/rewards/index.ts';
import { utcDate } from '../core/rewards/index.ts';
import { scoringParamsOf } from './config.ts';
import { formatUnitsPadded, priceToNumber } from '../core/money.ts';
import { isOpportunity, marketRewardDetailView, marketRewardView, type MarketRewardDetailView, type MarketRewardView } from './market-reward.ts';

export interface RewardReadDeps {
  db: Db;
  nowMs: () => number;
  quotesByMarket: () => ReadonlyMap<string, readonly RestingQuote[]>;
  minPayoutBaseUnits: bigint;
}

const HISTORY_TOTAL_CAP = 10_000;
const byValueThenId = (a: { value: bigint; marketId: string }, b: { value: bigint; marketId: string }) =>
  a.value === b.value ? (a.marketId < b.marketId ? -1 : 1) : a.value > b.value ? -1 : 1;

/** The read side of rewards: what the user routes and the public pool and leaderboard routes show. */
export class RewardReads {
  constructor(private readonly deps: RewardReadDeps) {}

  async summary(userId: string) {
    const { db, minPayoutBaseUnits } = this.deps;
    const now = this.deps.nowMs();
    const open = await listUserOpenAccruals(db, userId);
    const perMarket = new Map<string, { marketId: string; slug: string; name: string; pending: boolean; value: bigint }>();
    for (const row of open) {
      const entry = perMarket.get(row.market_id) ?? { marketId: row.market_id, slug: row.slug, name: row.name, pending: row.status !== 'ACTIVE' || row.is_resolved, value: 0n };
      entry.value += row.amount_base_units;
      perMarket.set(row.market_id, entry);
    }
    const rows = [...perMarket.values()].sort(byValueThenId);
    const yesterday = utcDate(now - DAY_MS);
    const settled = await listUserPayouts(db, userId, { limit: 1000, offset: 0, date: yesterday });
    const claimable = await claimableTotal(db, userId);
    const inFlight = (await findUnfinishedClaim(db, userId)) !== undefined;
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    const accruing = sum(open.map((r) => r.amount_base_units));
    return {
      todayByMarket: rows.map((r) => ({
        marketId: r.marketId, marketSlug: r.slug, marketName: r.name, marketDisplayName: null,
        earnedSoFarUsdc: formatUnitsPadded(r.value), pendingSettlement: r.pending, estimatedRewardUsdc: r.pending ? formatUnitsPadded(r.value) : null,
      })),
      earnedSoFarUsdc: formatUnitsPadded(sum(rows.filter((r) => !r.pending).map((r) => r.value))),
      pendingSettlementTotalUsdc: formatUnitsPadded(sum(rows.filter((r) => r.pending).map((r) => r.value))),
      yesterdaySettled: {
        totalPaidUsdc: formatUnitsPadded(sum(settled.filter((r) => r.status === 'PAID').map((r) => r.amount_base_units))),
        perMarket: settled.map((r) => ({
          marketId: r.market_id, marketSlug: r.market_slug, marketName: r.market_name, marketDisplayName: null,
          amountUsdc: formatUnitsPadded(r.amount_base_units), status: r.status, ...(r.tx_hash ? { txHash: r.tx_hash } : {}),
        })),
      },
      claimableUsdc: formatUnitsPadded(claimable),
      allTimeEarnedUsdc: formatUnitsPadded((await userLifetimeEarned(db, userId)) + accruing),
      claimInFlight: inFlight,
      minPayoutUsdc: formatUnitsPadded(minPayoutBaseUnits),
      canClaim: !inFlight && claimable > 0n && claimable >= minPayoutBaseUnits,
    };
  }

  /** The caller's resting orders that score in a current opportunity right now. */
  async qualifyingOrders(userId: string) {
    const now = this.deps.nowMs();
    const paused = await isRewardsPaused(this.deps.db);
    const configs = (await listRewardConfigsOfDate(this.deps.db, utcDate(now))).filter((c) => isOpportunity(c, now, paused) && marketRewardView(c, now).accruingNow);
    const quotes = this.deps.quotesByMarket();
    const result = [];
    for (const config of configs) {
      const book = quotes.get(config.market_id) ?? [];
      const mid2 = doubledMidpoint(book);
      // An order qualifies when it scores and its maker scores (outside [0.10, 0.90] a one-sided maker does not).
      if (mid2 === undefined || !makerScores(book, scoringParamsOf(config)).has(userId)) continue;
      for (const q of book) {
        if (q.makerId !== userId || orderScore(q, scoringParamsOf(config), mid2) === 0n) continue;
        result.push({
          orderId: q.orderId, marketId: config.market_id, marketName: config.market_name, marketDisplayName: null,
          outcome: q.outcome === 0 ? config.outcome1 : config.outcome2, outcomeIndex: q.outcome, side: q.side,
          price: priceToNumber(q.priceMicros), sizeUsdc: formatUnitsPadded(notionalBaseUnits(q)),
        });
      }
    }
    return result;
  }

  async history(userId: string, page: number, limit: number, withTotal: boolean) {
    const rows = await listUserPayouts(this.deps.db, userId, { limit, offset: (page - 1) * limit });
    const data = rows.map((r) => ({
      marketId: r.market_id, marketSlug: r.market_slug, marketName: r.market_name, marketDisplayName: null,
      epochDate: r.reward_date, earnedUsdc: formatUnitsPadded(r.earned_base_units), carriedInUsdc: formatUnitsPadded(r.carried_in_base_units),
      amountUsdc: formatUnitsPadded(r.amount_base_units), status: r.status,
      ...(r.tx_hash ? { txHash: r.tx_hash } : {}), ...(r.paid_at ? { paidAt: r.paid_at.toISOString() } : {}),
    }));
    if (!withTotal) return { data, page, limit, total: null };
    const total = await countUserPayouts(this.deps.db, userId, HISTORY_TOTAL_CAP);
    return { data, page, limit, total: Math.min(total, HISTORY_TOTAL_CAP), totalCapped: total > HISTORY_TOTAL_CAP };
  }

  /** The current opportunities, grouped by event (an event's markets stay on one page). */
  async pools(page: number, limit: number, search: string | undefined) {
    const now = this.deps.nowMs();
    const paused = await isRewardsPaused(this.deps.db);
    const configs = (await listRewardConfigsOfDate(this.deps.db, utcDate(now))).filter((c) => isOpportunity(c, now, paused));
    const totalReward = configs.reduce((sum, c) => sum + c.reward_base_units, 0n);
    const needle = search?.toLowerCase();
    const groups: { eventId: string; eventName: string; eventSlug: string; isMultiMarket: boolean; markets: MarketRewardView[] }[] = [];
    const byEvent = new Map<string, (typeof groups)[number]>();
    for (const c of configs) {
      if (needle && !c.event_name.toLowerCase().includes(needle) && !c.market_name.toLowerCase().includes(needle)) continue;
      let group = byEvent.get(c.event_id);
      if (!group) {
        group = { eventId: c.event_id, eventName: c.event_name, eventSlug: c.event_slug, isMultiMarket: !c.event_single, markets: [] };
        byEvent.set(c.event_id, group);
        groups.push(group);
      }
      group.markets.push(marketRewardView(c, now));
    }
    const offset = (page - 1) * limit;
    const data = groups.slice(offset, offset + limit);
    return { first: data.length ? offset + 1 : offset, last: data.length ? offset + data.length : offset, limit, total: groups.length, totalRewardUsdc: formatUnitsPadded(totalReward), data };
  }

  /** `includeRewards` on the event routes: each market's current opportunity, when it has one. */
  async marketRewards(marketIds: string[]): Promise<Map<string, MarketRewardView>> {
    const now = this.deps.nowMs();
    const paused = await isRewardsPaused(this.deps.db);
    const configs = await listRewardConfigsOfDate(this.deps.db, utcDate(now), marketIds);
    return new Map(configs.filter((c) => isOpportunity(c, now, paused)).map((c) => [c.market_id, marketRewardView(c, now)]));
  }

  async pool(marketId: string): Promise<MarketRewardDetailView | undefined> {
    const now = this.deps.nowMs();
    const paused = await isRewardsPaused(this.deps.db);
    const [config] = await listRewardConfigsOfDate(this.deps.db, utcDate(now), marketId);
    return config && isOpportunity(config, now, paused) ? marketRewardDetailView(config, now) : undefined;
  }

  /** Windows by UTC reward date (SPEC.md 4.7): 24h = yesterday and today, week = seven days ago through today. */
  async leaderboard(window: '24h' | 'week' | 'all', page: number, limit: number, callerId: string | undefined) {
    const now = this.deps.nowMs();
    const from = window === 'all' ? undefined : utcDate(now - (window === '24h' ? 1 : 7) * DAY_MS);
    const totals = await leaderboardTotals(this.deps.db, from);
    let rank = 0;
    const entries = totals.map((t, i) => {
      if (i === 0 || t.earned !== totals[i - 1]!.earned) rank = i + 1;
      return {
        rank, userId: t.user_id, isCurrentUser: t.user_id === callerId, earnedUsdc: formatUnitsPadded(t.earned),
        ...(t.anonymous ? { displayName: 'Anonymous', anonymous: true } : t.display_name ? { displayName: t.display_name, anonymous: false } : { anonymous: false }),
      };
    });
    const offset = (page - 1) * limit;
    const data = entries.slice(offset, offset + limit);
    const response = { first: data.length ? offset + 1 : offset, last: data.length ? offset + data.length : offset, limit, total: entries.length, data, window };
    if (callerId === undefined) return response;
    const mine = entries.find((e) => e.userId === callerId);
    return { ...response, currentUser: mine && !data.includes(mine) ? mine : null };
  }
}
