import { useEffect, useRef } from 'react';
import type { PnlHistory } from '../../../client/index.ts';
import { labelColor } from '../chart-label.ts';
import { themedChart } from './themed-chart.ts';

/** A profile's P&L over time as an area chart (lightweight-charts, loaded with the page that shows it). */
export function PnlChart({ history }: { history: PnlHistory }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let dispose = () => {};
    let disposed = false;
    void import('lightweight-charts').then((charts) => {
      if (disposed) return;
      // Dates and times on the time axis (day numbers alone said little), dollars on the price axis.
      const { chart, color, onTheme, remove } = themedChart(charts, element, {
        timeScale: { timeVisible: true, secondsVisible: false },
        localization: { priceFormatter: (value: number) => `${value < 0 ? '−' : ''}$${Math.abs(value).toFixed(2)}` },
      });
      const series = chart.addSeries(charts.BaselineSeries, { baseValue: { type: 'price', price: 0 } });
      const loss = (history.points.at(-1)?.value ?? 0) < 0;
      // The last value's label (and its dotted line) in its sign's colour, one its text reads on.
      onTheme(() => series.applyOptions({ topLineColor: color('--yes'), bottomLineColor: color('--no'), priceLineColor: labelColor(color(loss ? '--no' : '--yes')) }));
      series.setData(history.points.map((point) => ({ time: point.time as never, value: point.value })));
      chart.timeScale().fitContent();
      dispose = remove;
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
