import type { ChartOptions, DeepPartial, IChartApi } from 'lightweight-charts';

type Charts = typeof import('lightweight-charts');

/**
 * A lightweight-charts chart in the page's theme (text colour, font, grid in --line, no borders),
 * sized with its box. `color('--yes')` reads a theme colour for the series.
 */
export function themedChart(charts: Charts, element: HTMLElement, options: DeepPartial<ChartOptions> = {}): { chart: IChartApi; color: (variable: string) => string } {
  const style = getComputedStyle(element);
  const chart = charts.createChart(element, {
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: style.color, fontFamily: style.fontFamily, attributionLogo: false },
    grid: { vertLines: { visible: false }, horzLines: { color: style.getPropertyValue('--line') } },
    rightPriceScale: { borderVisible: false },
    ...options,
    timeScale: { borderVisible: false, ...options.timeScale },
  });
  return { chart, color: (variable) => style.getPropertyValue(variable) };
}
