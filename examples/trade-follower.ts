/**
 * Follows confirmed trades live over Socket.IO (every market, or one event's) and prints one line
 * per trade: when, who, what, at what price. Public: no wallet needed.
 *
 *   PMX_URL=http://127.0.0.1:3000 node --import tsx examples/trade-follower.ts
 * Optional: EVENT (an event id), COUNT (stop after this many trades; default: until interrupted).
 */
import { pathToFileURL } from 'node:url';
import { createClient, type ExchangeClient, type Market, type TradeActivity } from 'pmx-client';

export interface FollowOptions { eventId?: string; count?: number; print?: (line: string) => void; signal?: AbortSignal }

/** One line: when, who, what (the outcome's own name, "Yes" or "Trump", from its market), at what price. */
export function describeTrade(trade: TradeActivity, market: Market | undefined): string {
  const when = new Date(trade.matchedAt / 1000).toISOString();
  const who = trade.anonymous ? 'Anonymous' : trade.displayName ?? trade.userId.slice(0, 8);
  const name = trade.outcome === 'Side_A' ? market?.outcome1 : trade.outcome === 'Side_B' ? market?.outcome2 : undefined;
  const outcome = name ?? `token ${trade.tokenId.slice(0, 8)}…`;
  return `${when}  ${who} ${trade.side} ${trade.size} ${outcome} @ ${trade.price} ($${trade.notionalUsd.toFixed(2)})  ${trade.marketDisplayName ?? trade.marketName ?? trade.marketId}`;
}

/** Prints trades until `count` have arrived (or the feed is closed); answers them. */
export async function followTrades(client: ExchangeClient, options: FollowOptions = {}): Promise<TradeActivity[]> {
  const print = options.print ?? console.log;
  // A trade names its outcome as Side_A or Side_B only: the names are its market's, read once each.
  const markets = new Map<string, Promise<Market | undefined>>();
  const marketOf = (id: string) => {
    if (!markets.has(id)) markets.set(id, client.markets.get(id).catch(() => undefined));
    return markets.get(id)!;
  };
  const feed = client.trades.follow(options.eventId ? { eventId: options.eventId } : {});
  options.signal?.addEventListener('abort', () => feed.close());
  await feed.subscribed();
  print(`following ${options.eventId ? `event ${options.eventId}` : 'every market'}`);
  const seen: TradeActivity[] = [];
  for await (const trade of feed) {
    print(describeTrade(trade, await marketOf(trade.marketId)));
    seen.push(trade);
    if (seen.length === options.count) break;
  }
  return seen;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const client = createClient({ baseUrl: process.env.PMX_URL ?? 'http://127.0.0.1:3000' });
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  await followTrades(client, { eventId: process.env.EVENT, count: process.env.COUNT ? Number(process.env.COUNT) : undefined, signal: stop.signal });
}
