import { useEffect, useRef } from 'react';
import type { PnlHistory } from '../../../client/index.ts';
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
      const { chart, color } = themedChart(charts, element);
      const series = chart.addSeries(charts.BaselineSeries, { baseValue: { type: 'price', price: 0 }, topLineColor: color('--yes'), bottomLineColor: color('--no') });
      series.setData(history.points.map((point) => ({ time: point.time as never, value: point.value })));
      chart.timeScale().fitContent();
      dispose = () => chart.remove();
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [history]);
  return <div ref={box} className="chart small" data-testid="pnl-chart" />;
}
