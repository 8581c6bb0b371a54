/**
 * The reward window of one market and UTC day, in whole minutes (EXTENSIONS.md section 5).
 * Minute k is the minute starting at k × 60,000 ms since the epoch; it belongs to the window when
 * its start is inside [max(startAt, day start), min(endAt, day end)). A minute's budget is
 * `rewardUsdc / N × multiplier` (N the window's minutes); to stay exact the budgets are the
 * differences of a running floor, so a day without boosts pays out exactly `rewardUsdc`.
 */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** The UTC date (YYYY-MM-DD) holding `ms`: a reward configuration's day. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** Multipliers are decimals with up to 6 places, kept in millionths. */
export const MULTIPLIER_ONE = 1_000_000n;

export interface BoostWindow {
  startMs: number;
  endMs: number;
  multiplierMicros: bigint;
}

export interface RewardWindow {
  /** UTC midnight of the reward date. */
  dayStartMs: number;
  /** Null means unbounded (the whole day). */
  startMs: number | null;
  endMs: number | null;
  rewardBaseUnits: bigint;
  boosts: readonly BoostWindow[];
}

/** The first minute at or after `ms`. */
const minuteAtOrAfter = (ms: number): number => Math.ceil(ms / MINUTE_MS);

/** The window's minutes inside its UTC day: [first, end) minute indices (empty when first ≥ end). */
export function windowMinutes(w: Pick<RewardWindow, 'dayStartMs' | 'startMs' | 'endMs'>): { first: number; end: number } {
  const from = Math.max(w.startMs ?? w.dayStartMs, w.dayStartMs);
  const to = Math.min(w.endMs ?? w.dayStartMs + DAY_MS, w.dayStartMs + DAY_MS);
  const first = minuteAtOrAfter(from);
  return { first, end: Math.max(first, minuteAtOrAfter(to)) };
}

/** The boost of the minute starting at `ms` (half-open windows: startAt ≤ ms < endAt), or undefined. */
export function boostAt(boosts: readonly BoostWindow[], ms: number): BoostWindow | undefined {
  return boosts.find((b) => b.startMs <= ms && ms < b.endMs);
}

/**
 * The summed multipliers (millionths) of the window's minutes before minute `k`. Boost windows do
 * not overlap (the admin route refuses it), so each adds its extra over the minutes it covers.
 */
function weightBefore(w: RewardWindow, first: number, k: number): bigint {
  let weight = BigInt(k - first) * MULTIPLIER_ONE;
  for (const b of w.boosts) {
    const from = Math.max(minuteAtOrAfter(b.startMs), first);
    const to = Math.min(minuteAtOrAfter(b.endMs), k);
    if (to > from) weight += BigInt(to - from) * (b.multiplierMicros - MULTIPLIER_ONE);
  }
  return weight;
}

/** The budget of minute `k` in base units; 0 outside the window. */
export function minuteBudget(w: RewardWindow, k: number): bigint {
  const { first, end } = windowMinutes(w);
  if (k < first || k >= end) return 0n;
  const denominator = BigInt(end - first) * MULTIPLIER_ONE;
  const upTo = (minute: number) => (w.rewardBaseUnits * weightBefore(w, first, minute)) / denominator;
  return upTo(k + 1) - upTo(k);
}
