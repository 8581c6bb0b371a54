import { countOrderBookEvents, listOrderBookEvents } from '../../store/catalogue-lookups-repository.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from '../../contract/common.ts';
import { OrderbookEventPageSchema, OrderbookEventsQuery } from '../../contract/orders.ts';
import type { TypedApp } from '../typed-app.ts';

/** `total=true` counts at most this many events, then flags `totalCapped` (SPEC.md section 8). */
const TOTAL_CAP = 10_000;

/** GET /orders/events (SPEC.md 4.4): events with ACTIVE markets, newest first, with those markets. */
export function registerOrderEventsRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/orders/events', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: 'Events whose markets trade on the order book, newest first',
      security: [{ apiKey: [] }],
      querystring: OrderbookEventsQuery,
      response: { 200: OrderbookEventPageSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { page, limit, total } = request.query;
    const rows = await listOrderBookEvents(ctx.store.db, { limit, offset: (page - 1) * limit });
    const counted = total ? await countOrderBookEvents(ctx.store.db, TOTAL_CAP + 1) : null;
    return {
      data: rows.map((event) => ({
        id: event.id,
        name: event.name,
        slug: event.slug,
        createdAt: event.created_at.toISOString(),
        ...(event.start_date ? { startDate: event.start_date.toISOString() } : {}),
        ...(event.end_date ? { endDate: event.end_date.toISOString() } : {}),
        single: event.single,
        marketsView: event.markets.map((m) => ({
          id: m.id,
          name: m.name,
          tokenId1: m.token_id1 ?? '',
          tokenId2: m.token_id2 ?? '',
          outcome1: m.outcome1,
          outcome2: m.outcome2,
          orderFeeRateBps: m.order_fee_rate_bps,
          passiveOrderFeeRateBps: m.passive_order_fee_rate_bps,
        })),
      })),
      total: counted === null ? null : Math.min(counted, TOTAL_CAP),
      totalCapped: counted !== null && counted > TOTAL_CAP,
      page,
      limit,
    };
  });
}
