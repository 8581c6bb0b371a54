import type { ChartOptions, DeepPartial, IChartApi, Time } from 'lightweight-charts';

type Charts = typeof import('lightweight-charts');

/**
 * Time-axis labels in the reader's locale that say what they are: "Dec 2" at a day's first
 * mark (the library's default printed the day number alone, a bare "2"), "Dec 2026" and "2026"
 * for months and years, the time of day otherwise. The charts' times are Unix seconds.
 */
function tickMark(time: Time, type: number): string {
  if (typeof time !== 'number') return String(time);
  const date = new Date(time * 1000);
  if (type === 0) return date.toLocaleDateString(undefined, { year: 'numeric' });
  if (type === 1) return date.toLocaleDateString(undefined, { month: 'short', year: 'numeric' });
  if (type === 2) return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

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
    timeScale: { borderVisible: false, tickMarkFormatter: tickMark, fixLeftEdge: true, fixRightEdge: true, ...options.timeScale },
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
