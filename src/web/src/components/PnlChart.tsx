import { useEffect, useRef } from 'react';
import type { PnlHistory } from '../../../client/index.ts';

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
      const style = getComputedStyle(element);
      const chart = charts.createChart(element, {
        autoSize: true,
        layout: { background: { color: 'transparent' }, textColor: style.color, fontFamily: style.fontFamily, attributionLogo: false },
        grid: { vertLines: { visible: false }, horzLines: { color: style.getPropertyValue('--line') } },
        rightPriceScale: { borderVisible: false },
        timeScale: { borderVisible: false },
      });
      const series = chart.addSeries(charts.BaselineSeries, { baseValue: { type: 'price', price: 0 }, topLineColor: style.getPropertyValue('--yes'), bottomLineColor: style.getPropertyValue('--no') });
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
