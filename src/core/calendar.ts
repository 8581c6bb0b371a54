/**
 * UTC calendar windows of the event filters (EXTENSIONS.md section 11). All times are Unix
 * milliseconds; a window is [fromMs, toMs), so "the end of the day" is the start of the next one.
 */
export type EndsWindow = 'TODAY' | 'THIS_WEEK' | 'THIS_MONTH';
export type AddedWithin = 'LAST_24H' | 'LAST_7D' | 'LAST_30D';

export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const DAY_MS = 86_400_000;

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** From now to the end of the current UTC day, ISO week (Monday to Sunday) or calendar month. */
export function endsWindow(kind: EndsWindow, nowMs: number): TimeWindow {
  const today = startOfUtcDay(nowMs);
  switch (kind) {
    case 'TODAY':
      return { fromMs: nowMs, toMs: today + DAY_MS };
    case 'THIS_WEEK': {
      // getUTCDay: Sunday 0 … Saturday 6; days left until next Monday, counting today.
      const weekday = new Date(today).getUTCDay();
      const daysToMonday = weekday === 0 ? 1 : 8 - weekday;
      return { fromMs: nowMs, toMs: today + daysToMonday * DAY_MS };
    }
    case 'THIS_MONTH': {
      const date = new Date(today);
      return { fromMs: nowMs, toMs: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
    }
  }
}

const ADDED_WITHIN_MS: Record<AddedWithin, number> = {
  LAST_24H: DAY_MS,
  LAST_7D: 7 * DAY_MS,
  LAST_30D: 30 * DAY_MS,
};

/** The earliest creation time inside an `addedWithin` window. */
export function addedSinceMs(kind: AddedWithin, nowMs: number): number {
  return nowMs - ADDED_WITHIN_MS[kind];
}
