import type { ChartOptions, DeepPartial, IChartApi, Time } from 'lightweight-charts';
import { axisLabel, labelsFor, type AxisLabels } from '../time-axis.ts';

type Charts = typeof import('lightweight-charts');

/** The time axis's labels, by what each mark is (time-axis.ts axisLabel), or all of one kind; the charts' times are seconds on the reader's clock (chart-clock.ts). */
const tickMark = (labels?: AxisLabels) => (time: Time, type: number): string => (typeof time === 'number' ? axisLabel(time, type, labels) : String(time));

/**
 * A lightweight-charts chart in the page's theme (text colour, font, grid in --line, no borders),
 * sized with its box, and again in the new theme when the page's changes (the header's toggle sets
 * `data-theme`, or the system's preference). `color('--yes')` reads a theme colour for the series;
 * `onTheme(paint)` runs `paint` now and in each new theme, so series read from the theme's variables
 * follow it too (they kept the first theme's colours). `remove` removes the chart and stops
 * following the theme.
 */
export function themedChart(charts: Charts, element: HTMLElement, options: DeepPartial<ChartOptions> = {}): {
  chart: IChartApi; color: (variable: string) => string; onTheme: (paint: () => void) => void; remove: () => void;
} {
  const style = getComputedStyle(element);
  const themed = (): DeepPartial<ChartOptions> => ({
    layout: { background: { color: 'transparent' }, textColor: style.color, fontFamily: style.fontFamily, attributionLogo: false },
    grid: { vertLines: { visible: false }, horzLines: { color: style.getPropertyValue('--line') } },
  });
  const chart = charts.createChart(element, {
    autoSize: true,
    ...themed(),
    rightPriceScale: { borderVisible: false },
    ...options,
    // Fixed edges: the first and last date labels are moved inside the axis, where centred on the
    // chart's first and last points they were cut off ("ec 7", and "Jan 8" under the price axis).
    timeScale: { borderVisible: false, tickMarkFormatter: tickMark(), fixLeftEdge: true, fixRightEdge: true, ...options.timeScale },
  });
  const painters: (() => void)[] = [];
  const retheme = () => {
    chart.applyOptions(themed());
    for (const paint of painters) paint();
  };
  const toggled = new MutationObserver(retheme);
  toggled.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const system = matchMedia('(prefers-color-scheme: dark)');
  system.addEventListener('change', retheme);
  const remove = () => {
    toggled.disconnect();
    system.removeEventListener('change', retheme);
    chart.remove();
  };
  const onTheme = (paint: () => void) => {
    paint();
    painters.push(paint);
  };
  return { chart, color: (variable) => style.getPropertyValue(variable).trim(), onTheme, remove };
}

/**
 * Every label of `chart`'s time axis of one kind for the span it shows (time-axis.ts labelsFor):
 * times of day within a day, dates beyond it. The span is the visible range's, read again when a
 * zoom or a scroll changes it; the library keeps each mark's label once made, so a new kind is set
 * as a new formatter, which makes them again.
 */
export function labelsOfOneKind(chart: IChartApi): void {
  const scale = chart.timeScale();
  const shown = (): AxisLabels => {
    const range = scale.getVisibleRange();
    return labelsFor(range ? Number(range.to) - Number(range.from) : 0);
  };
  let labels = shown();
  const format = () => chart.applyOptions({ timeScale: { tickMarkFormatter: tickMark(labels) } });
  format();
  scale.subscribeVisibleTimeRangeChange(() => {
    const next = shown();
    if (next === labels) return;
    labels = next;
    format();
  });
}
