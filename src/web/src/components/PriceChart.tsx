import { useEffect, useRef, useState } from 'react';
import type { ExchangeClient, Market, PriceHistory, PriceHistoryParams } from '../../../client/index.ts';
import { errorText } from '../format.ts';
import { themedChart } from './themed-chart.ts';

type Interval = Extract<PriceHistoryParams['interval'], '1H' | '1D' | '1W' | '1M' | 'ALL'>;
/** Minutes per point: the largest fidelity each interval allows (SPEC.md 4.5), so one page holds it all. */
const FIDELITY: Record<Interval, number> = { '1H': 1, '1D': 15, '1W': 60, '1M': 240, ALL: 1440 };
const INTERVALS = Object.keys(FIDELITY) as Interval[];
const MAX_POINTS = 1440;

/**
 * Both outcomes' price history, drawn with TradingView's lightweight-charts (loaded with this
 * component, not with the home page), redrawn when `trades` (a count of live trades) moves.
 * Prices become numbers only here, as pixel positions.
 */
export function PriceChart({ client, market, trades }: { client: ExchangeClient; market: Market; trades: number }) {
  const box = useRef<HTMLDivElement>(null);
  const redraw = useRef<() => void>(() => {});
  const [interval, setInterval] = useState<Interval>('1D');
  const [state, setState] = useState<'loading' | 'empty' | 'drawn' | string>('loading');

  useEffect(() => {
    const element = box.current;
    if (!element || !market.tokenId1 || !market.tokenId2) return;
    let disposed = false;
    let dispose = () => {};
    const tokens = [market.tokenId1, market.tokenId2];
    const histories = () => Promise.all(tokens.map((token) => client.book.history({ token, interval, fidelity: FIDELITY[interval], limit: MAX_POINTS, total: false })));
    Promise.all([import('lightweight-charts'), histories()]).then(([charts, first]) => {
      if (disposed) return;
      const { chart, color } = themedChart(charts, element, {
        timeScale: { timeVisible: interval !== 'ALL' && interval !== '1M' },
        localization: { priceFormatter: (price: number) => `${Math.round(price * 100)}¢` },
      });
      const series = [color('--yes'), color('--no')].map((lineColor, index) => chart.addSeries(charts.LineSeries, {
        color: lineColor, lineWidth: 2, title: index === 0 ? market.outcome1 : market.outcome2, priceFormat: { type: 'price', precision: 3, minMove: 0.001 },
      }));
      const draw = (loaded: PriceHistory[]) => {
        let points = 0;
        loaded.forEach((history, index) => {
          series[index]!.setData(history.data.map((point) => ({ time: point.t as never, value: Number(point.p) })));
          points += history.data.length;
        });
        setState(points > 0 ? 'drawn' : 'empty');
      };
      draw(first);
      chart.timeScale().fitContent();
      // Each new trade of the market redraws the lines from the history as the server now has it.
      redraw.current = () => void histories().then((loaded) => !disposed && draw(loaded), () => {});
      dispose = () => chart.remove();
    }, (error: unknown) => !disposed && setState(errorText(error)));
    return () => {
      disposed = true;
      redraw.current = () => {};
      dispose();
    };
  }, [client, market, interval]);

  useEffect(() => {
    if (trades > 0) redraw.current();
  }, [trades]);

  return (
    <section className="panel chart-panel" aria-label="Price chart">
      <div className="tabs" role="group" aria-label="Chart interval">
        {INTERVALS.map((value) => (
          <button key={value} type="button" aria-pressed={interval === value} onClick={() => setInterval(value)}>{value}</button>
        ))}
        <span className="legend"><i className="dot yes" />{market.outcome1} <i className="dot no" />{market.outcome2}</span>
      </div>
      <div ref={box} className="chart" data-testid="price-chart" data-state={state} />
      {state === 'empty' && <p className="muted chart-note">No trades in this interval yet.</p>}
      {state !== 'loading' && state !== 'empty' && state !== 'drawn' && <p className="error">{state}</p>}
    </section>
  );
}
