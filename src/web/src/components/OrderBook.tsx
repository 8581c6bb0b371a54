import { useEffect, useState } from 'react';
import type { ExchangeClient, Level } from '../../../client/index.ts';
import { cents, centsOf, shares, units } from '../format.ts';

const LEVELS = 10;

/**
 * One token's live book from the SDK's BookWatcher. Changes arrive as fast as the server sends
 * them; the view is redrawn at most once per animation frame, from the book as it is then.
 */
export function OrderBook({ client, tokenId, onPick }: { client: ExchangeClient; tokenId: string; onPick: (price: string) => void }) {
  const [depth, setDepth] = useState<{ bids: Level[]; asks: Level[] } | undefined>(undefined);
  useEffect(() => {
    const watcher = client.watchBook([tokenId]);
    let frame = 0;
    const draw = () => {
      frame = 0;
      setDepth(watcher.depth(tokenId, LEVELS));
    };
    const off = watcher.on('update', () => {
      frame ||= requestAnimationFrame(draw);
    });
    return () => {
      off();
      cancelAnimationFrame(frame);
      watcher.close();
    };
  }, [client, tokenId]);

  if (!depth) return <p className="muted" role="status">Connecting to the book…</p>;
  const most = [...depth.bids, ...depth.asks].reduce((max, level) => Math.max(max, Number(level.size)), 0) || 1;
  // Bar widths only: a float is fine for pixels, never for the amounts printed beside them.
  const row = (level: Level, side: 'bid' | 'ask') => (
    <tr key={`${side}${level.price}`} className={side} onClick={() => onPick(level.price)}>
      <td className="num price">
        <button type="button" className="link" onClick={() => onPick(level.price)} aria-label={`Use price ${cents(level.price)}`}>{cents(level.price)}</button>
      </td>
      <td className="num">{shares(level.size)}</td>
      <td className="bar" aria-hidden="true"><span style={{ inlineSize: `${(Number(level.size) / most) * 100}%` }} /></td>
    </tr>
  );
  const bestBid = depth.bids[0];
  const bestAsk = depth.asks[0];
  return (
    <table className="book" data-testid="order-book" aria-label="Order book">
      <thead>
        <tr><th scope="col" className="num">Price</th><th scope="col" className="num">Shares</th><th scope="col"><span className="sr-only">Depth</span></th></tr>
      </thead>
      <tbody className="asks">{[...depth.asks].reverse().map((level) => row(level, 'ask'))}</tbody>
      <tbody>
        <tr className="spread">
          <td colSpan={3} className="muted num">
            {bestBid && bestAsk ? `Spread ${centsOf((units(bestAsk.price) ?? 0n) - (units(bestBid.price) ?? 0n))}` : depth.bids.length + depth.asks.length === 0 ? 'No orders yet' : 'One-sided book'}
          </td>
        </tr>
      </tbody>
      <tbody className="bids">{depth.bids.map((level) => row(level, 'bid'))}</tbody>
    </table>
  );
}

