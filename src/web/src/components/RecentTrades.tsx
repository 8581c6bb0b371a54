import type { Market, TradeActivity } from '../../../client/index.ts';
import { cents, shares } from '../format.ts';
import { TRADES_KEPT } from '../live-trades.ts';
import { Link } from '../router.tsx';

/** The market's last trades (live-trades.ts keeps the newest TRADES_KEPT), in a box that scrolls. */
export function RecentTrades({ market, trades }: { market: Market; trades: readonly TradeActivity[] }) {
  if (trades.length === 0) return <p className="muted">No trades yet.</p>;
  return (
    <div className="scroll-box">
      <table className="trades" data-testid="recent-trades" aria-label={`The last ${TRADES_KEPT} trades`}>
        <thead><tr><th scope="col">Trader</th><th scope="col">Side</th><th scope="col" className="num">Price</th><th scope="col" className="num">Shares</th><th scope="col" className="num">Time</th></tr></thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.id}>
              <td>{trade.displayName && !trade.anonymous ? <Link to={`/profile/${encodeURIComponent(trade.displayName)}`}>{trade.displayName}</Link> : 'Anonymous'}</td>
              <td className={trade.side === 'bought' ? 'up' : 'down'}>{trade.side} {trade.outcome === 'Side_B' ? market.outcome2 : market.outcome1}</td>
              <td className="num">{cents(trade.price, market.tickSize)}</td>
              <td className="num">{shares(trade.size)}</td>
              <td className="num muted">{new Date(trade.matchedAt / 1000).toLocaleTimeString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
