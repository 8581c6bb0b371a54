import { Type } from 'typebox';
import { countOrderBookEvents, listOrderBookEvents } from '../../store/catalogue-lookups-repository.ts';
import type { AppContext } from '../context.ts';
import { DateTime, errorResponses, Nullable, PageNumber, Uuid } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';

/** `total=true` counts at most this many events, then flags `totalCapped` (SPEC.md section 8). */
const TOTAL_CAP = 10_000;

const OrderbookEventMarketSchema = Type.Object({
  id: Type.Optional(Uuid),
  name: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  outcome1: Type.String(),
  outcome2: Type.String(),
  orderFeeRateBps: Type.Integer(),
  passiveOrderFeeRateBps: Type.Integer(),
});

const OrderbookEventSchema = Type.Object({
  id: Type.Optional(Uuid),
  name: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  createdAt: Type.Optional(DateTime),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  single: Type.Optional(Type.Boolean()),
  marketsView: Type.Optional(Type.Array(OrderbookEventMarketSchema)),
});

export const OrderbookEventPageSchema = Type.Object({
  data: Type.Array(OrderbookEventSchema),
  total: Nullable(Type.Integer()),
  totalCapped: Type.Boolean(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

/** GET /orders/events (SPEC.md 4.4): events with ACTIVE markets, newest first, with those markets. */
export function registerOrderEventsRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/orders/events', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['orders'],
      summary: 'Events whose markets trade on the order book, newest first',
      security: [{ apiKey: [] }],
      querystring: Type.Object({
        page: PageNumber,
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 30 }),
        total: Type.Boolean({ default: true }),
      }),
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
