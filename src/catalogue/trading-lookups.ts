import type { OrderMarketSource } from '../orders/order-queries.ts';
import type { Db } from '../store/database.ts';
import { findMarketIdsByName, findMarketsByTokenIds, findMarketsWithEvents, findPublishedMarketIdsOfEvent } from '../store/catalogue-lookups-repository.ts';

/** The market and outcome label of each known token (unknown tokens are left out). */
export type DescribeTokens = (tokenIds: string[]) => Promise<Map<string, { marketId: string; outcome: string }>>;

/** What balances and order listings read from the catalogue about markets. */
export interface TradingLookups {
  describeTokens: DescribeTokens;
  orderMarkets: OrderMarketSource;
  eventMarketIds(eventId: string): Promise<string[] | undefined>;
}

export function createTradingLookups(db: Db): TradingLookups {
  return {
    async describeTokens(tokenIds) {
      const described = new Map<string, { marketId: string; outcome: string }>();
      for (const market of await findMarketsByTokenIds(db, tokenIds)) {
        if (market.token_id1) described.set(market.token_id1, { marketId: market.id, outcome: market.outcome1 });
        if (market.token_id2) described.set(market.token_id2, { marketId: market.id, outcome: market.outcome2 });
      }
      return described;
    },
    orderMarkets: {
      async describe(marketIds) {
        const rows = await findMarketsWithEvents(db, marketIds);
        return new Map(rows.map((r) => [r.id, {
          icon: r.icon ?? '',
          slug: r.slug,
          title: r.name,
          eventId: r.event_id,
          eventName: r.event_name,
          ...(r.event_icon ? { eventIcon: r.event_icon } : {}),
          isMultiMarket: Number(r.market_count) > 1,
          isSeriesLayout: r.series_layout,
          outcome1: r.outcome1,
          outcome2: r.outcome2,
        }]));
      },
      idsByName: (partial) => findMarketIdsByName(db, partial),
    },
    eventMarketIds: (eventId) => findPublishedMarketIdsOfEvent(db, eventId),
  };
}
