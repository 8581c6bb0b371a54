/** A chart's point: Unix seconds and a value; without a value, whitespace (a time with nothing drawn). */
export interface Slot {
  time: number;
  value?: number;
}

/** Steps of time across a chart: more than a wide screen has pixels, so a point is placed within one. */
export const SLOTS = 2_000;

/** Steps in seconds that fall on round times of day (a step's time labels read "12:00", not "12:13"), then whole days. */
const ROUND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400];

/** The least round step that cuts `span` seconds into at most `slots`. */
function roundStep(span: number, slots: number): number {
  const least = Math.ceil(span / slots);
  return ROUND_STEPS.find((step) => step >= least) ?? Math.ceil(least / 86_400) * 86_400;
}

/**
 * Points placed along a time axis. lightweight-charts' time scale is an index: it draws its points
 * one step apart whatever the time between them, so an hour's gap and a month's were as wide. Time
 * is cut into equal round steps, at most `slots` from the first point to the last; each point takes
 * the step nearest its time, keeping its own time (a later point in the same step, under a pixel
 * away, replaces the earlier), and every other step is whitespace, which the library draws the line
 * across. The x axis is then time. Points are time-ordered, in seconds: on the charts' clock
 * (chart-clock.ts), the steps are round in the reader's time.
 */
export function onTimeAxis(points: readonly { time: number; value: number }[], slots = SLOTS): Slot[] {
  const first = points[0]?.time;
  const last = points.at(-1)?.time;
  if (first === undefined || last === undefined || last === first) return points.slice(-1);
  const step = roundStep(last - first, slots);
  const at = (time: number) => Math.round(time / step);
  const start = at(first);
  const placed: Slot[] = Array.from({ length: at(last) - start + 1 }, (_, index) => ({ time: (start + index) * step }));
  // A point keeps its own time: within half a step of its slot's, between its neighbours' (Math.round takes a half up).
  for (const point of points) placed[at(point.time) - start] = { time: point.time, value: point.value };
  return placed;
}

/** A day, in seconds. */
const DAY = 86_400;

/** What every label of one time axis says: a time of day, or a date (a day, a month, a year). */
export type AxisLabels = 'times' | 'dates';

/**
 * The labels of an axis spanning `span` seconds: times of day within a day's span, dates beyond
 * it. lightweight-charts labels each mark by what changed since the point before it (a day, an
 * hour), so one axis mixed them: the steps onTimeAxis cuts are under a day for every span under
 * 2,000 days, and each point keeps its own time, so an axis of days had hours' marks between its
 * days ("Jan 16", "12:00 PM", "Jan 17" over two to five days), and a day's span that crossed
 * midnight put a date among its times.
 */
export function labelsFor(span: number): AxisLabels {
  return span <= DAY ? 'times' : 'dates';
}

/**
 * A time-axis label in the reader's locale that says what it is: "Dec 2" at a day's mark (the
 * library's default printed the day number alone, a bare "2"), "Dec 2026" and "2026" for months and
 * years, the time of day otherwise. `type` is the mark's TickMarkType (0 a year's, 1 a month's, 2 a
 * day's, 3 and 4 a time's); `time`, on the charts' clock (chart-clock.ts: the reader's wall time
 * written as UTC, so read in UTC). With `labels`, every label is of that kind: on an axis of times a
 * day's mark says its time ("12:00 AM"), and on an axis of dates a time's mark says nothing (an
 * empty label: the library draws none, and a mark of a day is never left out for one).
 */
export function axisLabel(time: number, type: number, labels?: AxisLabels): string {
  const date = new Date(time * 1000);
  const timeOfDay = () => date.toLocaleTimeString(undefined, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
  if (labels === 'times') return timeOfDay();
  if (type >= 3) return labels === 'dates' ? '' : timeOfDay();
  if (type === 0) return date.toLocaleDateString(undefined, { timeZone: 'UTC', year: 'numeric' });
  if (type === 1) return date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', year: 'numeric' });
  return date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
}
