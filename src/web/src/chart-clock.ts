/** Seconds east of UTC of a time zone at a Unix time in seconds: its offset then, summer time included. */
export type ZoneOffset = (time: number) => number;

/** The reader's: the browser's time zone. */
const readerOffset: ZoneOffset = (time) => -new Date(time * 1000).getTimezoneOffset() * 60;

/**
 * Time-ordered points (Unix seconds) with their times on the charts' clock: the reader's wall time,
 * written as a UTC time. lightweight-charts knows no time zone and reads every time as UTC, so it
 * put a day's mark at UTC midnight (4 PM the day before for a reader in UTC-8, labelled with that
 * day) and its crosshair said UTC times. Each time is moved by the offset at that time, a point's
 * own, as summer time starts or ends between points: day marks then fall at local midnight, hour
 * marks on local hours, and every label read from such a time as UTC (the library's crosshair,
 * time-axis.ts axisLabel) says the local time. Times stay strictly increasing, as the library
 * requires: when clocks go back, the repeated hour's times come out no later than the times before
 * them, so such a point replaces the one before it, at that one's time (its value being the newer);
 * the hour skipped when clocks go forward is only a gap.
 */
export function onChartClock<P extends { time: number }>(points: readonly P[], offset: ZoneOffset = readerOffset): P[] {
  const shifted: P[] = [];
  for (const point of points) {
    const time = point.time + offset(point.time);
    const before = shifted.at(-1);
    if (before && time <= before.time) shifted[shifted.length - 1] = { ...point, time: before.time };
    else shifted.push({ ...point, time });
  }
  return shifted;
}
