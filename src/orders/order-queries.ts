import { badRequest, notFound } from '../contract/errors.ts';
import { toOrderResponse, type OrderResponse } from '../engine/shapes.ts';
import type { Db } from '../store/database.ts';
import { findOrderById, type OrderRow } from '../store/orders-repository.ts';
import { countOrders, listOrders, type OrderListFilter, type OrderSortKey, type SortDirection } from '../store/order-listing-repository.ts';
import type { OrderStatus } from '../store/schema.ts';
import type { OrderCursorCodec } from './order-cursor.ts';

/** The market fields an order listing shows (SPEC.md OrderMarketInfo) plus the outcome labels. */
export interface OrderMarketDescription {
  icon: string;
  slug: string;
  title: string;
  eventId?: string;
  eventName?: string;
  eventIcon?: string;
  isMultiMarket: boolean;
  isSeriesLayout: boolean;
  outcome1: string;
  outcome2: string;
}

/** What the catalogue tells the order listings about markets. */
export interface OrderMarketSource {
  describe(marketIds: string[]): Promise<Map<string, OrderMarketDescription>>;
  /** Markets whose name contains `partial`, ignoring case. */
  idsByName(partial: string): Promise<string[]>;
}

export type OrderWithMarket = OrderResponse & { marketInfo: Omit<OrderMarketDescription, 'outcome1' | 'outcome2'> & { outcomeIndex: number } };

export interface OrderQuery {
  market?: string | undefined;
  status?: OrderStatus | undefined;
  maker?: string | undefined;
  marketName?: string | undefined;
  sortBy: OrderSortKey;
  order: SortDirection;
}

export interface PaginatedQuery extends OrderQuery {
  page: number;
  limit: number;
  total: boolean;
  cursor?: string | undefined;
}

const OPEN: OrderStatus[] = ['PENDING', 'EXECUTING'];
const NOT_CANCELLED: OrderStatus[] = ['PENDING', 'EXECUTING', 'EXECUTED', 'REJECTED'];
/** `GET /orders` is unpaginated; it returns at most this many orders (the newest by default). */
export const ORDER_LIST_MAX = 1000;
/** `total=true` counts at most this far, then flags `totalCapped`. */
export const ORDER_TOTAL_CAP = 10_000;

/** The caller's orders (SPEC.md 4.4 GET routes). Only ever the caller's own. */
export class OrderQueries {
  constructor(private readonly db: Db, private readonly markets: OrderMarketSource, private readonly cursors: OrderCursorCodec) {}

  async list(userId: string, query: OrderQuery): Promise<OrderWithMarket[]> {
    if (query.status === 'CANCELLED') throw badRequest('status CANCELLED is not listed here; use GET /orders/paginated?status=CANCELLED');
    const filter = await this.filterOf(userId, query, query.status ? [query.status] : NOT_CANCELLED);
    const rows = await listOrders(this.db, filter, { sortBy: query.sortBy, order: query.order, limit: ORDER_LIST_MAX, offset: 0 });
    return this.withMarkets(rows);
  }

  async paginated(userId: string, query: PaginatedQuery) {
    const cursor = query.cursor ? this.cursors.decode(query.cursor) : undefined;
    if (cursor && (query.sortBy !== 'created_at' || cursor.order !== query.order)) throw badRequest('cursor is valid only with the default created_at sort and the order it was issued for');
    const filter = await this.filterOf(userId, query, query.status ? [query.status] : OPEN);
    const offset = cursor ? 0 : (query.page - 1) * query.limit;
    const after = cursor ? { createdAt: new Date(cursor.createdAtMs), bookSeq: BigInt(cursor.bookSeq) } : undefined;
    const rows = await listOrders(this.db, filter, { sortBy: query.sortBy, order: query.order, limit: query.limit + 1, offset, after });
    const hasMore = rows.length > query.limit;
    const pageRows = rows.slice(0, query.limit);
    const first = (cursor ? cursor.position : offset) + 1;
    const last = first + pageRows.length - 1;
    const counted = query.total ? await countOrders(this.db, filter, ORDER_TOTAL_CAP + 1) : null;
    const lastRow = pageRows.at(-1);
    const nextCursor = hasMore && lastRow && query.sortBy === 'created_at'
      ? this.cursors.encode({ createdAtMs: lastRow.created_at.getTime(), bookSeq: lastRow.book_seq.toString(), position: last, order: query.order })
      : null;
    return {
      first: pageRows.length > 0 ? first : 0,
      last: pageRows.length > 0 ? last : 0,
      limit: query.limit,
      total: counted === null ? null : Math.min(counted, ORDER_TOTAL_CAP),
      ...(counted === null ? {} : { totalCapped: counted > ORDER_TOTAL_CAP }),
      data: await this.withMarkets(pageRows),
      hasMore,
      nextCursor,
    };
  }

  /** Another user's order is 404, as if it did not exist (EXTENSIONS.md section 9). */
  async get(userId: string, orderId: string): Promise<OrderWithMarket> {
    const row = await findOrderById(this.db, orderId);
    if (!row || row.user_id !== userId) throw notFound('order');
    const [order] = await this.withMarkets([row]);
    return order!;
  }

  private async filterOf(userId: string, query: OrderQuery, statuses: OrderStatus[]): Promise<OrderListFilter> {
    let marketIds = query.market ? [query.market] : undefined;
    if (query.marketName) {
      const named = await this.markets.idsByName(query.marketName);
      marketIds = marketIds ? marketIds.filter((id) => named.includes(id)) : named;
    }
    return { userId, statuses, marketIds, maker: query.maker };
  }

  private async withMarkets(rows: OrderRow[]): Promise<OrderWithMarket[]> {
    const markets = await this.markets.describe([...new Set(rows.map((r) => r.market_id))]);
    return rows.map((row) => {
      const described = markets.get(row.market_id);
      const { outcome1 = '', outcome2 = '', ...info } = described ?? { icon: '', slug: '', title: '', isMultiMarket: false, isSeriesLayout: false };
      return { ...toOrderResponse(row, row.outcome_index === 0 ? outcome1 : outcome2), marketInfo: { ...info, outcomeIndex: row.outcome_index } };
    });
  }
}
