import type { Level } from '../../../client/index.ts';
import { cents, centsOf, shares, sharesOf, units } from '../format.ts';
import { levelKey } from '../own-orders.ts';

/**
 * One token's book, drawn from the live depth the page holds (live-book.ts): asks above, bids
 * below, the current price and the spread between them, and the trader's own resting orders
 * marked on their levels (own-orders.ts). Clicking a level puts its price in the ticket. Prices
 * show as the market's tick needs (`tickSize`, format.ts centsOf).
 */
export function OrderBook({ depth, current, tickSize, own, onPick }: {
  depth: { bids: Level[]; asks: Level[] } | undefined; current: bigint; tickSize: string; own: Map<string, bigint>; onPick: (price: string) => void;
}) {
  if (!depth) return <p className="muted" role="status">Connecting to the book…</p>;
  const most = [...depth.bids, ...depth.asks].reduce((max, level) => Math.max(max, Number(level.size)), 0) || 1;
  // Bar widths only: a float is fine for pixels, never for the amounts printed beside them.
  const row = (level: Level, side: 'bid' | 'ask') => {
    const mine = own.get(levelKey(side, units(level.price) ?? -1n));
    return (
      <tr key={`${side}${level.price}`} className={mine ? `${side} mine` : side} onClick={() => onPick(level.price)} data-testid={mine ? 'own-level' : undefined}>
        <td className="num price">
          <button type="button" className="link" onClick={() => onPick(level.price)} aria-label={`Use price ${cents(level.price, tickSize)}`}>{cents(level.price, tickSize)}</button>
        </td>
        <td className="num">{shares(level.size)}</td>
        <td className="mark">{mine ? <span className="badge" title={`Your order: ${sharesOf(mine)} shares`}>you {sharesOf(mine)}</span> : null}</td>
        <td className="bar" aria-hidden="true"><span style={{ inlineSize: `${(Number(level.size) / most) * 100}%` }} /></td>
      </tr>
    );
  };
  const bestBid = units(depth.bids[0]?.price);
  const bestAsk = units(depth.asks[0]?.price);
  const spread = bestBid !== undefined && bestAsk !== undefined ? ` · Spread ${centsOf(bestAsk - bestBid, tickSize)}` : '';
  return (
    <table className="book" data-testid="order-book" aria-label="Order book">
      <thead>
        <tr><th scope="col" className="num">Price</th><th scope="col" className="num">Shares</th><th scope="col"><span className="sr-only">Yours</span></th><th scope="col"><span className="sr-only">Depth</span></th></tr>
      </thead>
      <tbody className="asks">{[...depth.asks].reverse().map((level) => row(level, 'ask'))}</tbody>
      <tbody>
        <tr className="spread">
          <td colSpan={4} className="muted num" data-testid="book-price">
            {depth.bids.length + depth.asks.length === 0 ? 'No orders yet' : `Price ${centsOf(current, tickSize)}${spread || ' · one-sided book'}`}
          </td>
        </tr>
      </tbody>
      <tbody className="bids">{depth.bids.map((level) => row(level, 'bid'))}</tbody>
    </table>
  );
}
