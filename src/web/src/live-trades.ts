import { useEffect, useState } from 'react';
import type { ExchangeClient, TradeActivity } from '../../client/index.ts';

/** How many trades the market and event pages keep: the list shows them all, newest first. */
export const TRADES_KEPT = 50;

/**
 * An event's last trades (of one market when `marketId` is given), then every new one as the
 * public trade feed announces it (confirmed trades, as the API defines them); newest first, at
 * most TRADES_KEPT, so a page left open for hours holds a bounded list.
 */
export function useTrades(client: ExchangeClient, eventId: string, marketId?: string): TradeActivity[] {
  const [trades, setTrades] = useState<TradeActivity[]>([]);
  useEffect(() => {
    const feed = client.trades.follow({ eventId });
    let stopped = false;
    const add = (incoming: TradeActivity[]) => setTrades((current) => {
      const seen = new Set(current.map((trade) => trade.id));
      const fresh = incoming.filter((trade) => (marketId === undefined || trade.marketId === marketId) && !seen.has(trade.id));
      if (fresh.length === 0) return current;
      return [...fresh, ...current].sort((a, b) => b.matchedAt - a.matchedAt).slice(0, TRADES_KEPT);
    });
    // The activity route filters by event only (100 at most): a market of a multi-market event keeps its share of them.
    void client.trades.activity({ eventId, limit: 100 }).then((page) => !stopped && add(page.data), () => {});
    void (async () => {
      for await (const trade of feed) add([trade]);
    })();
    return () => {
      stopped = true;
      feed.close();
    };
  }, [client, eventId, marketId]);
  return trades;
}
