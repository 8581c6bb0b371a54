/**
 * The bucket arithmetic of GET /price-history (SPEC.md 4.5, EXTENSIONS.md section 11), pure:
 * buckets are `fidelity` minutes wide on a fixed grid (multiples of the width since the epoch),
 * labelled with their start, from the window's start (or the token's first trade, whichever is
 * later) to the bucket holding "now".
 */
export type Interval = '1H' | '6H' | '1D' | '1W' | '1M' | 'ALL';

export const MAX_FIDELITY: Record<Interval, number> = { '1H': 5, '6H': 15, '1D': 60, '1W': 240, '1M': 1440, ALL: 1440 };
const WINDOW_HOURS: Record<Exclude<Interval, 'ALL'>, number> = { '1H': 1, '6H': 6, '1D': 24, '1W': 168, '1M': 720 };

export interface BucketSpan {
  fromSec: number;
  stepSec: number;
  count: number;
}

/** The buckets to show, or undefined when the token has not traded yet (no point has a price). */
export function bucketSpan(interval: Interval, fidelityMinutes: number, nowSec: number, firstTradeSec: number | undefined): BucketSpan | undefined {
  if (firstTradeSec === undefined || firstTradeSec > nowSec) return undefined;
  const stepSec = fidelityMinutes * 60;
  const windowStart = interval === 'ALL' ? firstTradeSec : nowSec - WINDOW_HOURS[interval] * 3600;
  const floorTo = (sec: number) => Math.floor(sec / stepSec) * stepSec;
  const fromSec = floorTo(Math.max(windowStart, firstTradeSec));
  const toSec = floorTo(nowSec);
  return { fromSec, stepSec, count: (toSec - fromSec) / stepSec + 1 };
}

/** For a timestamp-sorted page: the sub-range of buckets it shows (empty past the end). */
export function pageBuckets(span: BucketSpan, order: 'ASC' | 'DESC', offset: number, limit: number): { fromSec: number; toSec: number } | undefined {
  if (offset >= span.count) return undefined;
  const last = Math.min(span.count, offset + limit) - 1;
  const [first, final] = order === 'ASC' ? [offset, last] : [span.count - 1 - last, span.count - 1 - offset];
  return { fromSec: span.fromSec + first * span.stepSec, toSec: span.fromSec + final * span.stepSec };
}
