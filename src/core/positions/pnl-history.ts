/**
 * The points of a profile's P&L history (SPEC.md 4.8 pnl-history) from a recorded series of
 * realised P&L per hour. Pure: the time is passed in.
 */
export type PnlRange = '1D' | '1W' | '1M' | '1Y' | 'YTD' | 'ALL';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Where a range starts (null: at the first recorded point) and how wide its buckets are. */
export function rangeWindow(range: PnlRange, nowMs: number): { startMs: number | null; bucketMs: number } {
  switch (range) {
    case '1D': return { startMs: nowMs - DAY_MS, bucketMs: HOUR_MS };
    case '1W': return { startMs: nowMs - 7 * DAY_MS, bucketMs: HOUR_MS };
    case '1M': return { startMs: nowMs - 30 * DAY_MS, bucketMs: DAY_MS };
    case '1Y': return { startMs: nowMs - 365 * DAY_MS, bucketMs: DAY_MS };
    case 'YTD': return { startMs: Date.UTC(new Date(nowMs).getUTCFullYear(), 0, 1), bucketMs: DAY_MS };
    case 'ALL': return { startMs: null, bucketMs: DAY_MS };
  }
}

export interface PnlPoint {
  /** Unix seconds. */
  time: number;
  /** Signed base units. */
  value: bigint;
}

/**
 * Cumulative realised P&L: a point at the start of a bounded range (what was realised before it),
 * one per bucket in which P&L was realised (the running total at the bucket's end, labelled with
 * the bucket's start, never before the range's), and a last point at `nowMs` with the live total
 * (realised plus unrealised).
 * `series` is per-hour realised P&L inside the range, oldest first.
 */
export function pnlPoints(series: Array<{ hourMs: number; realized: bigint }>, before: bigint, window: { startMs: number | null; bucketMs: number }, nowMs: number, liveTotal: bigint): PnlPoint[] {
  const points: PnlPoint[] = window.startMs === null ? [] : [{ time: Math.floor(window.startMs / 1000), value: before }];
  const put = (time: number, value: bigint) => {
    const last = points.at(-1);
    if (last?.time === time) last.value = value;
    else points.push({ time, value });
  };
  let running = before;
  for (const { hourMs, realized } of series) {
    running += realized;
    put(Math.floor(Math.max(window.startMs ?? 0, Math.floor(hourMs / window.bucketMs) * window.bucketMs) / 1000), running);
  }
  put(Math.floor(nowMs / 1000), liveTotal);
  return points;
}
