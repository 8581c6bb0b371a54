import type { PriceHistoryParams } from '../../client/index.ts';
import { centsOf } from './format.ts';

export type Interval = Extract<PriceHistoryParams['interval'], '1H' | '1D' | '1W' | '1M' | 'ALL'>;
export const INTERVALS: Interval[] = ['1H', '1D', '1W', '1M', 'ALL'];
/** One page of price history holds at most this many points (SPEC.md 4.5). */
export const MAX_POINTS = 1440;
const WINDOW_MINUTES: Record<Exclude<Interval, 'ALL'>, number> = { '1H': 60, '1D': 1_440, '1W': 10_080, '1M': 43_200 };

/**
 * Minutes per point: the finest that fits one page over the interval (1D at one minute), so a
 * market a few minutes old still draws its moves rather than one flat bucket. ALL spans the
 * market's life since its first price (`ageMinutes`).
 */
export function fidelityFor(interval: Interval, ageMinutes: number): number {
  const span = interval === 'ALL' ? ageMinutes : WINDOW_MINUTES[interval];
  return Math.min(1_440, Math.max(1, Math.ceil(span / MAX_POINTS)));
}

/**
 * The price axis in cents, its steps on the market's tick, every label (and the crosshair's and the
 * last value's) printed by the app's one price formatter (format.ts centsOf): as many decimals as
 * the tick needs, so every label differs from its neighbours (rounding 50.5¢ and 51¢ both to "51¢"
 * printed repeated labels). The library hands over floats: back to millionths first.
 */
export function centsScale(tickSize: string): { minMove: number; formatter: (price: number) => string } {
  return { minMove: Number(tickSize), formatter: (price: number) => centsOf(BigInt(Math.round(price * 1e6)), tickSize) };
}

/** The least span of the price axis: a flat line sits inside a 10¢ range instead of filling the chart with one value. */
const MIN_SPAN = 0.1;

/** A price range widened to MIN_SPAN around its centre, kept within 0 and 1. */
export function widened(range: { minValue: number; maxValue: number }): { minValue: number; maxValue: number } {
  if (range.maxValue - range.minValue >= MIN_SPAN) return range;
  const centre = (range.maxValue + range.minValue) / 2;
  const minValue = Math.min(Math.max(0, centre - MIN_SPAN / 2), 1 - MIN_SPAN);
  return { minValue, maxValue: minValue + MIN_SPAN };
}
