import { useEffect, useRef } from 'react';
import type { PnlHistory } from '../../../client/index.ts';
import { onChartClock } from '../chart-clock.ts';
import { onTimeAxis } from '../time-axis.ts';
import { labelsOfOneKind, themedChart } from './themed-chart.ts';

/**
 * A profile's P&L over time as an area chart (lightweight-charts, loaded with the page that shows
 * it), its points placed by their time (time-axis.ts): the API's points are uneven, a bucket only
 * where P&L was realised, then now.
 */
export function PnlChart({ history }: { history: PnlHistory }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let dispose = () => {};
    let disposed = false;
    void import('lightweight-charts').then((charts) => {
      if (!disposed) dispose = drawPnl(charts, element, history);
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [history]);
  return (
    <figure className="pnl">
      <div ref={box} className="chart small" data-testid="pnl-chart" />
      <figcaption className="muted">P&amp;L in USD over time (your local time)</figcaption>
    </figure>
  );
}

/** Draws `history` in `element`; the answer removes the chart. */
export function drawPnl(charts: typeof import('lightweight-charts'), element: HTMLElement, history: Pick<PnlHistory, 'points'>): () => void {
  // Dates or times on the time axis, one kind for the span shown (day numbers alone said little), dollars on the price axis.
  const { chart, color, onTheme, remove } = themedChart(charts, element, {
    // The time axis's steps are far narrower than the library's least (half a pixel): fitted whole.
    timeScale: { timeVisible: true, secondsVisible: false, minBarSpacing: 0.001 },
    localization: { priceFormatter: (value: number) => `${value < 0 ? '−' : ''}$${Math.abs(value).toFixed(2)}` },
  });
  // No last-value label: it covered the price axis's own labels, and both pages say the P&L above the chart.
  const series = chart.addSeries(charts.BaselineSeries, { baseValue: { type: 'price', price: 0 }, lastValueVisible: false, priceLineVisible: false });
  onTheme(() => series.applyOptions({ topLineColor: color('--yes'), bottomLineColor: color('--no') }));
  series.setData(onTimeAxis(onChartClock(history.points)) as never);
  chart.timeScale().fitContent();
  labelsOfOneKind(chart);
  return remove;
}
