import { ExchangeError, OrderBuildError } from '../errors.ts';
import { buildOrder, type MarketRules, type OrderSpec } from '../orders/build.ts';
import { checkOrderSpec } from '../orders/spec.ts';
import { followCursor } from '../paginate.ts';
import type {
  BatchCancelOrderResult, BatchOrderResult, CancelAllOrdersResponse, CreateOrder, Market, Order, OrderBook, OrderbookEventPage, OrderListParams, OrderPageParams, OrderPagination, OrderWithMarket,
} from '../types.ts';
import type { ClientContext } from './context.ts';

/** The server's batch limit for POST /orders/batch and /orders/batch-cancel (SPEC.md section 8). */
export const BATCH_MAX = 50;

const TICK_CODES = new Set(['ORDER_PRICE_NOT_ON_TICK', 'ORDER_SIZE_NOT_ON_TICK']);
const FEE_RATE_MISMATCH = 'ORDER_FEE_RATE_MISMATCH';

/**
 * Refusals of an order on its market's rules as the SDK cached them before an operator changed
 * them (PATCH /admin/markets/{id}): off the tick, by the SDK's check or the server's; at the fee
 * rate it was signed with, by the server's only (the SDK checks no fee).
 */
const isTickRefusal = (error: unknown): error is ExchangeError | OrderBuildError => (error instanceof OrderBuildError || error instanceof ExchangeError) && TICK_CODES.has(error.code);
const isRulesRefusal = (error: unknown): error is ExchangeError => error instanceof ExchangeError && (TICK_CODES.has(error.code) || error.code === FEE_RATE_MISMATCH);

const chunks = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / BATCH_MAX) }, (_, i) => items.slice(i * BATCH_MAX, (i + 1) * BATCH_MAX));

/** Orders (SPEC.md 4.4), API key HMAC. `place` takes an OrderSpec (built here) or a ready CreateOrder. */
export function ordersSection(ctx: ClientContext) {
  const { transport } = ctx;
  const marketsByToken = new Map<string, Promise<MarketRules>>();

  /** The market of a token, read: its book names the market, the market holds the tick and fee rules. */
  const readMarket = (tokenId: string) => transport.call<OrderBook>('GET', '/order-book/book', { query: { token_id: tokenId } })
    .then((book) => transport.call<Market>('GET', `/markets/${book.market}`));

  /** The market of a token, cached. */
  function marketOf(tokenId: string): Promise<MarketRules> {
    let market = marketsByToken.get(tokenId);
    if (!market) {
      market = readMarket(tokenId);
      marketsByToken.set(tokenId, market);
      market.catch(() => marketsByToken.delete(tokenId));
    }
    return market;
  }

  /**
   * The token's market read afresh and cached, after `refusal` of an order built on its cached
   * rules (an operator changed them): a new tick, or a fee rate no higher than the cached one, is
   * followed. A raised rate is not: the caller never saw it, so nothing is signed at it and the
   * cache keeps the old rules (later orders are refused the same way) until forgetMarkets().
   */
  async function followed(tokenId: string, refusal: ExchangeError | OrderBuildError): Promise<MarketRules> {
    const [cached, fresh] = await Promise.all([marketOf(tokenId), readMarket(tokenId)]);
    if (fresh.orderFeeRateBps > cached.orderFeeRateBps) {
      const message = `market ${fresh.id}'s fee rate was raised from ${cached.orderFeeRateBps} to ${fresh.orderFeeRateBps} bps since its rules were read; orders are not signed at the new rate until orders.forgetMarkets() accepts the new terms`;
      throw refusal instanceof ExchangeError
        ? new ExchangeError({ status: refusal.status, code: FEE_RATE_MISMATCH, message, method: refusal.method, path: refusal.path })
        : new OrderBuildError(FEE_RATE_MISMATCH, message);
    }
    marketsByToken.set(tokenId, Promise.resolve(fresh));
    return fresh;
  }

  async function signer() {
    if (!ctx.account) return undefined;
    ctx.user ??= await transport.call('GET', '/account', { auth: 'jwtOrApiKey' });
    return { account: ctx.account, proxyWallet: ctx.user!.proxyWallet };
  }

  /**
   * A signed CreateOrder (unsigned when the client has no wallet), checked locally against the
   * market's rules: `market`'s, or the token's market's, cached. A price or size off the cached
   * tick is checked again on the market read afresh, so a tick the operator changed is followed
   * (a fee rate raised meanwhile is not, `followed`).
   */
  async function build(spec: OrderSpec, market?: MarketRules): Promise<CreateOrder> {
    checkOrderSpec(spec);
    if (market) return buildOn(spec, market);
    try {
      return await buildOn(spec, await marketOf(spec.tokenId));
    } catch (error) {
      if (!isTickRefusal(error)) throw error;
      return buildOn(spec, await followed(spec.tokenId, error));
    }
  }

  async function buildOn(spec: OrderSpec, rules: MarketRules): Promise<CreateOrder> {
    const [exchange, by] = await Promise.all([transport.exchange(), signer()]);
    return buildOrder(spec, rules, exchange, by);
  }

  const asBody = (order: OrderSpec | CreateOrder) => ('makerAmount' in order ? Promise.resolve(order) : build(order));
  const send = (body: CreateOrder) => transport.call<Order>('POST', '/orders', { auth: 'apiKey', body, idempotent: body.idempotencyKey !== undefined });

  const page = (params: OrderPageParams = {}) => transport.call<OrderPagination>('GET', '/orders/paginated', { auth: 'apiKey', query: params });

  return {
    build,
    /**
     * Forgets cached market rules: `build` and `place` read a market's again when its tick or a
     * lowered fee refuses an order; this forgets every other rule too, and accepts a raised fee.
     */
    forgetMarkets: () => marketsByToken.clear(),

    /**
     * Places one order; retried on 429/503 only when it carries an idempotency key (built orders
     * always do). An OrderSpec the server refuses off its market's tick or at its fee rate (the
     * operator changed them since the SDK cached the rules) is built once more on the market read
     * afresh and sent again, the refused order never placed; but not at a raised fee rate, which is
     * an ExchangeError ORDER_FEE_RATE_MISMATCH naming both rates (`followed`).
     */
    async place(order: OrderSpec | CreateOrder): Promise<Order> {
      const body = await asBody(order);
      try {
        return await send(body);
      } catch (error) {
        if ('makerAmount' in order || !isRulesRefusal(error)) throw error;
        return send(await buildOn(order, await followed(order.tokenId, error)));
      }
    },

    /** Any number of orders, 50 per call; results in input order, `index` counting across calls. */
    async placeMany(orders: readonly (OrderSpec | CreateOrder)[], onProgress?: (done: number, total: number) => void): Promise<BatchOrderResult[]> {
      const results: BatchOrderResult[] = [];
      for (const chunk of chunks(orders)) {
        const bodies = await Promise.all(chunk.map(asBody));
        const idempotent = bodies.every((b) => b.idempotencyKey !== undefined);
        const answer = await transport.call<{ results: BatchOrderResult[] }>('POST', '/orders/batch', { auth: 'apiKey', body: { orders: bodies }, idempotent });
        const offset = results.length;
        results.push(...answer.results.map((r) => ({ ...r, index: r.index + offset })));
        onProgress?.(results.length, orders.length);
      }
      return results;
    },

    cancel: (orderId: string) => transport.call<Order>('POST', `/orders/${encodeURIComponent(orderId)}/cancel`, { auth: 'apiKey', idempotent: true }),

    /** Any number of order ids, 50 per call; results in input order. */
    async cancelMany(orderIds: readonly string[], onProgress?: (done: number, total: number) => void): Promise<BatchCancelOrderResult[]> {
      const results: BatchCancelOrderResult[] = [];
      for (const chunk of chunks(orderIds)) {
        const answer = await transport.call<{ results: BatchCancelOrderResult[] }>('POST', '/orders/batch-cancel', { auth: 'apiKey', body: { orderIds: chunk }, idempotent: true });
        results.push(...answer.results);
        onProgress?.(results.length, orderIds.length);
      }
      return results;
    },

    cancelMarket: (marketId: string) => transport.call<Order[]>('POST', '/orders/cancel', { auth: 'apiKey', body: { market: marketId }, idempotent: true }),
    cancelEvent: (eventId: string) => transport.call<CancelAllOrdersResponse>('POST', '/orders/cancel-event', { auth: 'apiKey', body: { eventId }, idempotent: true }),
    cancelAll: () => transport.call<CancelAllOrdersResponse>('POST', '/orders/cancel-all', { auth: 'apiKey', idempotent: true }),

    list: (params: OrderListParams = {}) => transport.call<OrderWithMarket[]>('GET', '/orders', { auth: 'apiKey', query: params }),
    page,
    /** Every order matching the filters, through the cursor of /orders/paginated. */
    all: (params: Omit<OrderPageParams, 'cursor' | 'page' | 'sortBy'> = {}) => followCursor<OrderPagination, OrderWithMarket>((cursor) => page({ ...params, ...(cursor ? { cursor } : {}) })),
    get: (orderId: string) => transport.call<OrderWithMarket>('GET', `/orders/${encodeURIComponent(orderId)}`, { auth: 'apiKey' }),
    /** Events with ACTIVE markets, for order-entry front ends. */
    events: (params: { page?: number; limit?: number; total?: boolean } = {}) => transport.call<OrderbookEventPage>('GET', '/orders/events', { auth: 'apiKey', query: params }),
  };
}
