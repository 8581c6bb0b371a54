import { badRequest } from '../contract/errors.ts';
import type { CatalogueReads } from '../catalogue/reads.ts';
import type { MarketView } from '../catalogue/views.ts';
import { formatUnits, parseUnits } from '../core/money.ts';
import { notional } from '../core/positions/position.ts';
import type { Db } from '../store/database.ts';
import { userTokenBalances, type AnonymityViewer } from '../store/market-data-positions-repository.ts';
import { latestPricesMicros } from './latest-prices.ts';

/** SPEC.md 4.1 and 8: users per request, and the position rows read per request. */
export const MAX_POSITION_USERS = 50;
export const MAX_POSITION_ROWS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a token's latest price comes from: the last trade, else the book's midpoint (the engine). */
export interface LatestPriceSource {
  lastTradeMicros(tokenId: string): bigint | undefined;
  midpointMicros(tokenId: string): bigint | undefined;
}

export interface EventUserPosition {
  market_uuid: string;
  tokenId: string;
  amount: string;
  current: string;
  displayName: string | null;
  outcome: string;
  title: string;
  slug: string;
  icon: string;
  conditionId?: string;
  outcomeIndex: number;
  status: MarketView['status'];
  resolvedTo?: string;
}

/** `users`: one comma-separated value of 1 to 50 UUIDs, duplicates removed (case-insensitively). */
export function parseUsers(value: string): string[] {
  const ids = [...new Set(value.split(',').map((v) => v.trim().toLowerCase()))];
  if (ids.some((id) => !UUID.test(id))) throw badRequest('users must be comma-separated user UUIDs');
  if (ids.length > MAX_POSITION_USERS) throw badRequest(`users: at most ${MAX_POSITION_USERS} users`);
  return ids;
}

/** GET /events/{id}/positions: each user's positions in the event's markets, by current value. */
export class EventPositionReads {
  constructor(private readonly db: Db, private readonly catalogue: CatalogueReads, private readonly prices: LatestPriceSource) {}

  /** Anonymous users are left out unless the viewer is the operator or that user (SPEC.md: anonymous mode hides a trader). */
  async forUsers(eventId: string, users: string, viewer: AnonymityViewer): Promise<{ userId: string; positions: EventUserPosition[] }[]> {
    const userIds = parseUsers(users);
    const event = await this.catalogue.getEvent(eventId, { marketScope: 'ALL', marketLimit: 200 }, viewer.admin);
    const byToken = new Map<string, { market: MarketView; index: 0 | 1 }>();
    for (const market of event.markets) {
      if (market.tokenId1) byToken.set(market.tokenId1, { market, index: 0 });
      if (market.tokenId2) byToken.set(market.tokenId2, { market, index: 1 });
    }
    const rows = await userTokenBalances(this.db, userIds, [...byToken.keys()], MAX_POSITION_ROWS, viewer);
    const held = [...new Set(rows.map((r) => r.asset))].map((tokenId) => {
      const { market, index } = byToken.get(tokenId)!;
      return { marketId: market.id, tokenId, outcomeIndex: index, resolvedTo: market.marketResolvedTo };
    });
    const prices = await latestPricesMicros(this.db, this.prices, held);
    const result = userIds.map((userId) => ({ userId, positions: [] as { value: bigint; position: EventUserPosition }[] }));
    const ofUser = new Map(result.map((r) => [r.userId, r.positions]));
    for (const row of rows) {
      const { market, index } = byToken.get(row.asset)!;
      const amount = BigInt(row.balance);
      const value = notional(prices.get(row.asset)!, amount);
      ofUser.get(row.user_id)?.push({ value, position: toPosition(market, index, row.asset, amount, value) });
    }
    return result.filter((r) => r.positions.length > 0).map((r) => ({
      userId: r.userId,
      positions: r.positions.sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : 0)).map((p) => p.position),
    }));
  }
}

function toPosition(market: MarketView, index: 0 | 1, tokenId: string, amount: bigint, value: bigint): EventUserPosition {
  const position: EventUserPosition = {
    market_uuid: market.id,
    tokenId,
    amount: formatUnits(amount),
    current: formatUnits(value),
    displayName: null,
    outcome: index === 0 ? market.outcome1 : market.outcome2,
    title: market.name,
    slug: market.slug,
    icon: market.icon,
    outcomeIndex: index,
    status: market.status,
  };
  if (market.conditionId) position.conditionId = market.conditionId;
  if (market.marketResolvedTo) position.resolvedTo = market.marketResolvedTo;
  return position;
}

/**
 * The engine's in-memory view as a price source: last trade price, and the midpoint of a two-sided
 * book as the durable records left it (`orderBook`: the engine node's and a standby's alike, and
 * reading it publishes nothing, where a subscriber's snapshot would send a book's waiting frame).
 */
export function engineLatestPrices(engine: {
  lastTradePrice(tokenId: string): { price: string } | undefined;
  orderBook(tokenId: string): { bids: { price: string }[]; asks: { price: string }[] } | undefined;
}): LatestPriceSource {
  return {
    lastTradeMicros: (tokenId) => {
      const last = engine.lastTradePrice(tokenId);
      return last === undefined ? undefined : parseUnits(last.price);
    },
    midpointMicros: (tokenId) => {
      const book = engine.orderBook(tokenId);
      const bid = book?.bids[0] && parseUnits(book.bids[0].price);
      const ask = book?.asks[0] && parseUnits(book.asks[0].price);
      return bid === undefined || ask === undefined ? undefined : (bid + ask) / 2n;
    },
  };
}
