import { boostAt, DAY_MS } from '../core/rewards/index.ts';
import type { RewardConfigRow, RewardConfigWithMarket } from '../store/rewards-repository.ts';
import { utcDate } from '../core/rewards/index.ts';
import { boostsOf, dayStartMs } from './config.ts';
import { formatMillionths, formatPrice, formatUnitsPadded } from '../core/money.ts';

export interface RewardBoostWindowView { startAt: string; endAt: string; multiplier: string }

/** SPEC.md MarketReward. */
export interface MarketRewardView {
  marketId: string;
  marketSlug: string | null;
  marketName: string | null;
  marketDisplayName: string | null;
  rewardUsdc: string | null;
  rewardStatus: 'ACCRUING' | 'SCHEDULED';
  accruingNow: boolean;
  rewardStartAt: string | null;
  rewardEndAt: string | null;
  maxDistanceFromMid: string;
  extremeMaxDistanceFromMid: string;
  minOrderSizeUsdc: string;
  boostWindows: RewardBoostWindowView[];
  activeBoostWindow: RewardBoostWindowView | null;
  currentBoostMultiplier: string;
}

/** SPEC.md MarketRewardDetail. */
export interface MarketRewardDetailView extends MarketRewardView {
  eventId: string;
  eventSlug: string | null;
  eventName: string | null;
  isMultiMarket: boolean;
  isActive: boolean;
}

/**
 * Whether a configuration is a genuine opportunity now (SPEC.md 4.7): today's, enabled, strictly
 * positive, rewards not paused, market ACTIVE, visible and not paused, and its window open now or later today.
 */
export function isOpportunity(config: RewardConfigWithMarket, nowMs: number, paused: boolean): boolean {
  const end = Math.min(config.end_at?.getTime() ?? Infinity, dayStartMs(config.reward_date) + DAY_MS);
  return !paused && config.enabled && config.reward_base_units > 0n && config.reward_date === utcDate(nowMs)
    && config.market_status === 'ACTIVE' && !config.market_hidden && !config.market_paused && end > nowMs;
}

export function marketRewardView(config: RewardConfigRow & { market_slug: string; market_name: string }, nowMs: number): MarketRewardView {
  // Accruing: enabled, and its window, within its UTC day, open now (a disabled or ended one shows
  // SCHEDULED in the operator's view; public lists hold opportunities only, isOpportunity).
  const dayStart = dayStartMs(config.reward_date);
  const start = Math.max(config.start_at?.getTime() ?? 0, dayStart);
  const end = Math.min(config.end_at?.getTime() ?? Infinity, dayStart + DAY_MS);
  const accruing = config.enabled && start <= nowMs && nowMs < end;
  const windows = boostsOf(config);
  // Multipliers leave normalised ("2.50" in, "2.5" out), so a window's multiplier equals currentBoostMultiplier.
  const boosts = windows.map((b) => ({ startAt: new Date(b.startMs).toISOString(), endAt: new Date(b.endMs).toISOString(), multiplier: formatMillionths(b.multiplierMicros) }));
  const active = boostAt(windows, nowMs);
  const activeView = active ? boosts[windows.indexOf(active)]! : null;
  return {
    marketId: config.market_id,
    marketSlug: config.market_slug,
    marketName: config.market_name,
    marketDisplayName: null,
    rewardUsdc: formatUnitsPadded(config.reward_base_units),
    rewardStatus: accruing ? 'ACCRUING' : 'SCHEDULED',
    accruingNow: accruing,
    rewardStartAt: config.start_at?.toISOString() ?? null,
    rewardEndAt: config.end_at?.toISOString() ?? null,
    maxDistanceFromMid: formatPrice(config.max_distance_micros),
    extremeMaxDistanceFromMid: formatPrice(config.extreme_max_distance_micros),
    minOrderSizeUsdc: formatUnitsPadded(config.min_order_size_base_units),
    boostWindows: boosts,
    activeBoostWindow: activeView,
    currentBoostMultiplier: activeView?.multiplier ?? '1',
  };
}

export function marketRewardDetailView(config: RewardConfigWithMarket, nowMs: number): MarketRewardDetailView {
  return {
    ...marketRewardView(config, nowMs),
    eventId: config.event_id,
    eventSlug: config.event_slug,
    eventName: config.event_name,
    isMultiMarket: !config.event_single,
    isActive: config.market_status === 'ACTIVE',
  };
}
