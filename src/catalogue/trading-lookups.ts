import type { OrderMarketSource } from '../orders/order-queries.ts';
import type { Db } from '../store/database.ts';
import { findMarketIdsByName, findMarketsWithEvents, findPublishedMarketIdsOfEvent } from '../store/catalogue-lookups-repository.ts';

/** What order listings and cancels read from the catalogue about markets. */
export interface TradingLookups {
  orderMarkets: OrderMarketSource;
  eventMarketIds(eventId: string): Promise<string[] | undefined>;
}

export function createTradingLookups(db: Db): TradingLookups {
  return {
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
