import { useEffect, useState } from 'react';
import type { ExchangeClient, Market, TradeActivity } from '../../../client/index.ts';
import { cents, shares } from '../format.ts';
import { Link } from '../router.tsx';

const SHOWN = 30;

/** The market's last trades, then every new one as the public trade feed announces it. */
export function RecentTrades({ client, market, onTrade }: { client: ExchangeClient; market: Market; onTrade: () => void }) {
  const { eventId, id: marketId } = market;
  const [trades, setTrades] = useState<TradeActivity[]>([]);
  useEffect(() => {
    const feed = client.trades.follow({ eventId });
    let stopped = false;
    const add = (incoming: TradeActivity[]) => setTrades((current) => {
      const seen = new Set(current.map((trade) => trade.id));
      const fresh = incoming.filter((trade) => trade.marketId === marketId && !seen.has(trade.id));
      return [...fresh, ...current].sort((a, b) => b.matchedAt - a.matchedAt).slice(0, SHOWN);
    });
    void client.trades.activity({ eventId, limit: 100 }).then((page) => !stopped && add(page.data));
    void (async () => {
      for await (const trade of feed) {
        add([trade]);
        if (trade.marketId === marketId) onTrade();
      }
    })();
    return () => {
      stopped = true;
      feed.close();
    };
  }, [client, eventId, marketId, onTrade]);

  if (trades.length === 0) return <p className="muted">No trades yet.</p>;
  return (
    <table className="trades" data-testid="recent-trades">
      <thead><tr><th scope="col">Trader</th><th scope="col">Side</th><th scope="col" className="num">Price</th><th scope="col" className="num">Shares</th><th scope="col" className="num">Time</th></tr></thead>
      <tbody>
        {trades.map((trade) => (
          <tr key={trade.id}>
            <td>{trade.displayName && !trade.anonymous ? <Link to={`/profile/${encodeURIComponent(trade.displayName)}`}>{trade.displayName}</Link> : 'Anonymous'}</td>
            <td className={trade.side === 'bought' ? 'up' : 'down'}>{trade.side} {trade.outcome === 'Side_B' ? market.outcome2 : market.outcome1}</td>
            <td className="num">{cents(trade.price)}</td>
            <td className="num">{shares(trade.size)}</td>
            <td className="num muted">{new Date(trade.matchedAt / 1000).toLocaleTimeString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
