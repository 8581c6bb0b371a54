import { BASE_UNITS_PER_UNIT, parseUnits, PRICE_ONE } from '../core/money.ts';
import { DAY_MS, MULTIPLIER_ONE, utcDate, type BoostWindow, type RewardWindow } from '../core/rewards/index.ts';
import type { ScoringParams } from '../core/rewards/index.ts';
import type { RewardConfigRow } from '../store/rewards-repository.ts';

/** RewardConfigInput (EXTENSIONS.md section 5) as the admin route receives it. */
export interface RewardConfigInput {
  date?: string | undefined;
  rewardUsdc: string;
  startAt?: string | undefined;
  endAt?: string | undefined;
  maxDistanceFromMid: string;
  extremeMaxDistanceFromMid?: string | undefined;
  minOrderSizeUsdc: string;
  boostWindows?: { startAt: string; endAt: string; multiplier: string }[] | undefined;
  enabled?: boolean | undefined;
}

/** A validated configuration in base units and milliseconds. */
export interface RewardConfig {
  date: string;
  rewardBaseUnits: bigint;
  startMs: number | null;
  endMs: number | null;
  maxDistanceMicros: number;
  extremeMaxDistanceMicros: number;
  minOrderSizeBaseUnits: bigint;
  boosts: { startAt: string; endAt: string; multiplier: string }[];
  enabled: boolean;
}

/** A rule the input breaks; the route answers 400 VALIDATION_FAILED with the message. */
export class RewardConfigError extends Error {}

/**
 * The largest `rewardUsdc` and `minOrderSizeUsdc` accepted, 1,000,000,000 USDC: far above any real
 * pool, and low enough that a boosted day and the carried sums of many days stay inside the
 * 64-bit columns they are stored in (a larger amount would otherwise fail in the database, a 5xx).
 */
export const MAX_REWARD_CONFIG_BASE_UNITS = 1_000_000_000n * BASE_UNITS_PER_UNIT;

/** The highest boost multiplier accepted: a typo like 100 instead of 1.00 should not drain a treasury. */
export const MAX_MULTIPLIER = 10n * MULTIPLIER_ONE;

export const dayStartMs = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);

/** Validates and normalises an input; `nowMs` decides what "today" is (no past dates). */
export function parseRewardConfig(input: RewardConfigInput, nowMs: number): RewardConfig {
  const date = input.date ?? utcDate(nowMs);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(dayStartMs(date)) || utcDate(dayStartMs(date)) !== date) throw new RewardConfigError('date must be a UTC date YYYY-MM-DD');
  if (date < utcDate(nowMs)) throw new RewardConfigError('date must be today or later (UTC)');
  const day = dayStartMs(date);
  const rewardBaseUnits = amount(input.rewardUsdc, 'rewardUsdc');
  const startMs = input.startAt === undefined ? null : time(input.startAt, 'startAt');
  const endMs = input.endAt === undefined ? null : time(input.endAt, 'endAt');
  if (startMs !== null && endMs !== null && startMs >= endMs) throw new RewardConfigError('startAt must be before endAt');
  if ((startMs ?? day) >= day + DAY_MS || (endMs ?? day + DAY_MS) <= day) throw new RewardConfigError(`the reward window must overlap the UTC day ${date}`);
  const maxDistanceMicros = distance(input.maxDistanceFromMid, 'maxDistanceFromMid');
  const extremeMaxDistanceMicros = input.extremeMaxDistanceFromMid === undefined ? maxDistanceMicros : distance(input.extremeMaxDistanceFromMid, 'extremeMaxDistanceFromMid');
  const minOrderSizeBaseUnits = amount(input.minOrderSizeUsdc, 'minOrderSizeUsdc');
  const boosts = (input.boostWindows ?? []).map((b, i) => {
    const startAt = time(b.startAt, `boostWindows[${i}].startAt`);
    const endAt = time(b.endAt, `boostWindows[${i}].endAt`);
    if (startAt >= endAt) throw new RewardConfigError(`boostWindows[${i}]: startAt must be before endAt`);
    const multiplier = parseUnits(b.multiplier);
    if (multiplier === undefined || multiplier === 0n || multiplier > MAX_MULTIPLIER) throw new RewardConfigError(`boostWindows[${i}].multiplier must be a decimal above 0 and at most 10, with at most 6 decimals`);
    return { startMs: startAt, endMs: endAt, startAt: new Date(startAt).toISOString(), endAt: new Date(endAt).toISOString(), multiplier: b.multiplier };
  }).sort((a, b) => a.startMs - b.startMs);
  for (let i = 1; i < boosts.length; i++) {
    if (boosts[i]!.startMs < boosts[i - 1]!.endMs) throw new RewardConfigError('boost windows must not overlap');
  }
  return {
    date, rewardBaseUnits, startMs, endMs, maxDistanceMicros, extremeMaxDistanceMicros, minOrderSizeBaseUnits,
    boosts: boosts.map(({ startAt, endAt, multiplier }) => ({ startAt, endAt, multiplier })),
    enabled: input.enabled ?? true,
  };
}

/** When a stored configuration freezes: its window opens (startAt, or the start of its UTC day). */
export const freezesAtMs = (row: Pick<RewardConfigRow, 'reward_date' | 'start_at'>): number =>
  Math.max(row.start_at?.getTime() ?? 0, dayStartMs(row.reward_date));

/** Whether `next` changes anything of `row` but `enabled`. */
export function changesFrozenFields(row: RewardConfigRow, next: RewardConfig): boolean {
  return row.reward_base_units !== next.rewardBaseUnits
    || (row.start_at?.getTime() ?? null) !== next.startMs
    || (row.end_at?.getTime() ?? null) !== next.endMs
    || row.max_distance_micros !== next.maxDistanceMicros
    || row.extreme_max_distance_micros !== next.extremeMaxDistanceMicros
    || row.min_order_size_base_units !== next.minOrderSizeBaseUnits
    || JSON.stringify(normaliseBoosts(row.boost_windows)) !== JSON.stringify(normaliseBoosts(next.boosts));
}

const normaliseBoosts = (boosts: { startAt: string; endAt: string; multiplier: string }[]) =>
  boosts.map((b) => [Date.parse(b.startAt), Date.parse(b.endAt), parseUnits(b.multiplier)?.toString()]);

/** The stored row as the core's window and scoring parameters. */
export function windowOf(row: RewardConfigRow): RewardWindow {
  return {
    dayStartMs: dayStartMs(row.reward_date),
    startMs: row.start_at?.getTime() ?? null,
    endMs: row.end_at?.getTime() ?? null,
    rewardBaseUnits: row.reward_base_units,
    boosts: boostsOf(row),
  };
}

export function boostsOf(row: Pick<RewardConfigRow, 'boost_windows'>): BoostWindow[] {
  return row.boost_windows.map((b) => ({ startMs: Date.parse(b.startAt), endMs: Date.parse(b.endAt), multiplierMicros: parseUnits(b.multiplier)! }));
}

export function scoringParamsOf(row: RewardConfigRow): ScoringParams {
  return { maxDistanceMicros: row.max_distance_micros, extremeMaxDistanceMicros: row.extreme_max_distance_micros, minOrderSizeBaseUnits: row.min_order_size_base_units };
}

function amount(text: string, field: string): bigint {
  const value = parseUnits(text);
  if (value === undefined || value > MAX_REWARD_CONFIG_BASE_UNITS) throw new RewardConfigError(`${field} must be a non-negative decimal with at most 6 decimals, at most 1000000000`);
  return value;
}

function distance(text: string, field: string): number {
  const value = parseUnits(text);
  if (value === undefined || value === 0n || value >= PRICE_ONE) throw new RewardConfigError(`${field} must be a decimal above 0 and below 1, with at most 6 decimals`);
  return Number(value);
}

function time(text: string, field: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new RewardConfigError(`${field} must be an ISO 8601 date-time`);
  return ms;
}
