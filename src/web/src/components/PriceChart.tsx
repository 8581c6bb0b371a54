import { useEffect, useRef, useState } from 'react';
import type { ISeriesApi } from 'lightweight-charts';
import type { ExchangeClient, PriceHistory } from '../../../client/index.ts';
import { onChartClock } from '../chart-clock.ts';
import { labelColor } from '../chart-label.ts';
import { centsScale, fidelityFor, INTERVALS, MAX_POINTS, widened, type Interval } from '../chart-scale.ts';
import { errorText } from '../format.ts';
import { themedChart } from './themed-chart.ts';

/** One line of the chart: a token's price history, its label and its colour (a CSS colour or a theme variable such as --yes). */
export interface ChartLine {
  tokenId: string;
  label: string;
  color: string;
}

/**
 * Price history of one or more tokens (a market's two outcomes, or every outcome of an event),
 * drawn with TradingView's lightweight-charts (loaded with this component, not with the home
 * page), redrawn from the server when `refresh` changes (the newest trade's id). Each line ends at
 * `current`, the page's one current price (price.ts), as the headline shows it. Prices become
 * numbers only here, as pixel positions.
 */
export function PriceChart({ client, lines, current, tickSize, since, refresh }: {
  client: ExchangeClient; lines: ChartLine[]; current: bigint[]; tickSize: string; since: string | null; refresh: string | undefined;
}) {
  const box = useRef<HTMLDivElement>(null);
  const redraw = useRef<() => void>(() => {});
  const ends = useRef<() => void>(() => {});
  const latest = useRef(current);
  latest.current = current;
  const [interval, setInterval] = useState<Interval>('1D');
  const [state, setState] = useState<'loading' | 'empty' | 'drawn' | string>('loading');
  const tokens = lines.map((line) => line.tokenId).join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `tokens` stands for `lines`, whose array is new each render
  useEffect(() => {
    const element = box.current;
    if (!element || !tokens) return;
    let disposed = false;
    let dispose = () => {};
    const ageMinutes = since ? (Date.now() - Date.parse(since)) / 60_000 : 0;
    const fidelity = fidelityFor(interval, ageMinutes);
    const histories = () => Promise.all(lines.map((line) => client.book.history({ token: line.tokenId, interval, fidelity, limit: MAX_POINTS, total: false })));
    Promise.all([import('lightweight-charts'), histories()]).then(([charts, first]) => {
      if (disposed) return;
      const { chart, color, onTheme, remove } = themedChart(charts, element, { timeScale: { timeVisible: interval !== 'ALL' && interval !== '1M' } });
      const scale = centsScale(tickSize);
      const series: ISeriesApi<'Line'>[] = lines.map((line) => chart.addSeries(charts.LineSeries, {
        lineWidth: 2,
        title: line.label,
        // The dashed line of the last value across the whole chart reads as a second series.
        priceLineVisible: false,
        priceFormat: { type: 'custom', ...scale },
        autoscaleInfoProvider: (original: () => { priceRange: { minValue: number; maxValue: number } | null } | null) => {
          const info = original();
          return info?.priceRange ? { ...info, priceRange: widened(info.priceRange) } : info;
        },
      }));
      // The price line is hidden, so its colour is only the last-value label's: one its text reads on.
      onTheme(() => lines.forEach((line, index) => {
        const lineColor = line.color.startsWith('--') ? color(line.color) : line.color;
        series[index]!.applyOptions({ color: lineColor, priceLineColor: labelColor(lineColor) });
      }));
      const lastTimes: (number | undefined)[] = [];
      const draw = (loaded: PriceHistory[]) => {
        let points = 0;
        loaded.forEach((history, index) => {
          // On the reader's clock: the library reads times as UTC (chart-clock.ts).
          const line = onChartClock(history.data.map((point) => ({ time: point.t, value: Number(point.p) })));
          series[index]!.setData(line as never);
          lastTimes[index] = line.at(-1)?.time;
          points += history.data.length;
        });
        ends.current();
        setState(points > 0 ? 'drawn' : 'empty');
      };
      // The last bucket is the one holding now: it shows the current price, not only its last trade.
      ends.current = () => latest.current.forEach((price, index) => {
        const time = lastTimes[index];
        if (time !== undefined) series[index]?.update({ time: time as never, value: Number(price) / 1e6 });
      });
      draw(first);
      chart.timeScale().fitContent();
      redraw.current = () => void histories().then((loaded) => !disposed && draw(loaded), () => {});
      dispose = remove;
    }, (error: unknown) => !disposed && setState(errorText(error)));
    return () => {
      disposed = true;
      redraw.current = () => {};
      ends.current = () => {};
      dispose();
    };
  }, [client, tokens, tickSize, since, interval]);

  useEffect(() => {
    if (refresh !== undefined) redraw.current();
  }, [refresh]);
  const currentKey = current.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `currentKey` stands for `current` (read through `latest`), whose array is new each render
  useEffect(() => {
    ends.current();
  }, [currentKey]);

  return (
    <section className="panel chart-panel" aria-label="Price chart">
      <div className="tabs" role="group" aria-label="Chart interval">
        {INTERVALS.map((value) => (
          <button key={value} type="button" aria-pressed={interval === value} onClick={() => setInterval(value)}>{value}</button>
        ))}
        <span className="legend">
          {lines.map((line) => <span key={line.tokenId}><i className="dot" style={{ background: line.color.startsWith('--') ? `var(${line.color})` : line.color }} />{line.label}</span>)}
        </span>
      </div>
      <div ref={box} className="chart" data-testid="price-chart" data-state={state} />
      {state === 'empty' && <p className="muted chart-note">No trades in this interval yet.</p>}
      {state !== 'loading' && state !== 'empty' && state !== 'drawn' && <p className="error">{state}</p>}
    </section>
  );
}
