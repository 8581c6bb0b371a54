import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { toOrderResponse } from '../../engine/shapes.ts';
import type { CreateOrderRequest, EntryOutcome } from '../../orders/order-entry.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../../contract/errors.ts';
import { errorResponses } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { compileBodyPart } from '../validation.ts';
import { formatValidationErrors } from '../validation-messages.ts';
import {
  BatchCancelBody, BatchCancelResponse, BatchOrdersBody, BatchOrdersResponse, CancelAllOrdersResponseSchema, CancelEventOrdersBody, CancelMarketOrdersBody, CreateOrderSchema, OrderIdParams, OrderSchema,
} from '../../contract/orders.ts';

const security = [{ apiKey: [] }];
/**
 * Every route here is an order command: HMAC only, counted against RATE_LIMIT_ORDERS, and run on
 * the engine's node (a node without it passes the request on, src/cluster).
 */
const command = { auth: 'apiKey' as const, orderCommand: true, engineCommand: true };
/** Batch items are checked one by one so that one malformed item fails alone (SPEC.md section 7), with the single order's rules and messages. */
const createOrderItem = compileBodyPart(CreateOrderSchema);

/** Placing and cancelling orders (SPEC.md 4.4), API key HMAC only. */
export function registerOrderCommandRoutes(api: TypedApp, ctx: AppContext): void {
  const { orderEntry, orderCancels } = ctx.trading;
  /** EXTENSIONS.md section 14: every order command's answer names the journal record that made it durable. */
  const journalSeq = `${ctx.config.headerPrefix}-journal-seq`;
  const durableAt = (reply: FastifyReply, seq: bigint | undefined) => {
    reply.header(journalSeq, String(seq ?? ctx.trading.engine.durableSeq));
  };

  api.post('/orders', {
    config: command,
    schema: { tags: ['orders'], summary: 'Place an order', security, body: CreateOrderSchema, response: { 200: OrderSchema, ...errorResponses(400, 401, 409, 503) } },
  }, async (request, reply) => {
    const outcome = await orderEntry.submit(requireCaller(request), request.body);
    durableAt(reply, outcome.seq);
    if (!outcome.ok) throw outcome.error;
    return toOrderResponse(outcome.order, ctx.trading.engine.reads.outcomeLabelOf(outcome.order));
  });

  api.post('/orders/batch', {
    config: command,
    schema: {
      tags: ['orders'],
      summary: 'Place up to 50 orders; each succeeds or fails on its own, results in request order',
      security,
      body: BatchOrdersBody,
      response: { 200: BatchOrdersResponse, ...errorResponses(400, 401, 503) },
    },
  }, async (request, reply) => {
    const caller = requireCaller(request);
    const items = request.body.orders;
    // Undefined for a valid item, else why it is not one.
    const refusals = items.map((item) => (createOrderItem(item) ? undefined : `VALIDATION_FAILED: ${formatValidationErrors(createOrderItem.errors ?? [], 'order').message}`));
    const placed = await ctx.trading.orderEntry.submitBatch(caller, items.filter((_, i) => refusals[i] === undefined) as CreateOrderRequest[]);
    durableAt(reply, placed.reduce<bigint | undefined>((last, outcome) => (outcome.seq !== undefined && (last === undefined || outcome.seq > last) ? outcome.seq : last), undefined));
    let next = 0;
    const results = refusals.map((error, index) => (error === undefined ? batchResult(index, placed[next++]!) : { index, success: false, error }));
    return { results };
  });

  api.post('/orders/:id/cancel', {
    config: command,
    schema: { tags: ['orders'], summary: 'Cancel one open order', security, params: OrderIdParams, response: { 200: OrderSchema, ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request, reply) => {
    const { order, seq } = await orderCancels.cancelOne(requireCaller(request).userId, request.params.id);
    durableAt(reply, seq);
    return toOrderResponse(order, ctx.trading.engine.reads.outcomeLabelOf(order));
  });

  api.post('/orders/batch-cancel', {
    config: command,
    schema: {
      tags: ['orders'],
      summary: 'Cancel up to 50 orders; results in request order',
      security,
      body: BatchCancelBody,
      response: { 200: BatchCancelResponse, ...errorResponses(400, 401, 503) },
    },
  }, async (request, reply) => {
    const { results, seq } = await orderCancels.cancelMany(requireCaller(request).userId, request.body.orderIds);
    durableAt(reply, seq === 0n ? undefined : seq);
    return { results };
  });

  api.post('/orders/cancel', {
    config: command,
    schema: { tags: ['orders'], summary: "Cancel the caller's open orders in one market", security, body: CancelMarketOrdersBody, response: { 200: Type.Array(OrderSchema), ...errorResponses(400, 401, 404, 503) } },
  }, async (request, reply) => {
    const caller = requireCaller(request);
    if (!(await ctx.trading.markets.load(request.body.market))) throw notFound(`market ${request.body.market}`);
    const result = await orderCancels.cancelInMarkets(caller.userId, [request.body.market]);
    if (result.failedMarkets.length > 0) throw new AppError('SERVICE_UNAVAILABLE', 'the market could not be cancelled now; retry');
    durableAt(reply, result.seq);
    return result.cancelled.map((row) => toOrderResponse(row, ctx.trading.engine.reads.outcomeLabelOf(row)));
  });

  api.post('/orders/cancel-event', {
    config: command,
    schema: { tags: ['orders'], summary: "Cancel the caller's open orders in every market of an event", security, body: CancelEventOrdersBody, response: { 200: CancelAllOrdersResponseSchema, ...errorResponses(400, 401, 404, 503) } },
  }, async (request, reply) => {
    const marketIds = await ctx.trading.eventMarketIds(request.body.eventId);
    if (!marketIds) throw notFound(`event ${request.body.eventId}`);
    const result = await orderCancels.cancelInMarkets(requireCaller(request).userId, marketIds);
    durableAt(reply, result.seq === 0n ? undefined : result.seq);
    return marketsResponse(result);
  });

  api.post('/orders/cancel-all', {
    config: command,
    schema: { tags: ['orders'], summary: "Cancel every open order of the caller", security, response: { 200: CancelAllOrdersResponseSchema, ...errorResponses(401, 503) } },
  }, async (request, reply) => {
    const caller = requireCaller(request);
    const result = await orderCancels.cancelInMarkets(caller.userId, ctx.trading.engine.reads.marketsWithOpenOrders(caller.userId));
    durableAt(reply, result.seq === 0n ? undefined : result.seq);
    return marketsResponse(result);
  });
}

function batchResult(index: number, outcome: EntryOutcome): { index: number; success: boolean; orderId?: string; error?: string } {
  if (outcome.ok) return { index, success: true, orderId: outcome.order.id };
  return { index, success: false, error: `${outcome.error.code}: ${outcome.error.message}` };
}

function marketsResponse({ clearedMarkets, failedMarkets }: { clearedMarkets: string[]; failedMarkets: string[] }) {
  return failedMarkets.length > 0 ? { clearedMarkets, failedMarkets } : { clearedMarkets };
}

