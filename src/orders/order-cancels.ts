import { AppError, notFound, type OrderRuleCode } from '../contract/errors.ts';
import type { MatchingEngine } from '../engine/engine.ts';
import type { OrderRow } from '../store/orders-repository.ts';

export interface CancelResult {
  orderId: string;
  success: boolean;
  error?: string;
}

export interface MarketsCancelResult {
  cancelled: OrderRow[];
  clearedMarkets: string[];
  failedMarkets: string[];
  /** The last journal record these cancels made durable (0 when none reached the engine). */
  seq: bigint;
}

/**
 * Cancellation (SPEC.md 4.4): one order, a list of orders, or every open order of the caller in
 * some markets. Per-market cancels go to the engine as separate commands so that a market the
 * engine refuses (its queue full) is reported in `failedMarkets` without holding back the others;
 * a failed journal append fails every command after it alike.
 */
export class OrderCancels {
  constructor(private readonly engine: MatchingEngine) {}

  async cancelOne(userId: string, orderId: string): Promise<{ order: OrderRow; seq: bigint }> {
    const outcome = await this.engine.cancel(userId, orderId);
    if (outcome.ok) return { order: outcome.order, seq: outcome.seq };
    throw await this.refusal(userId, orderId, outcome);
  }

  /** Results in request order; a repeated id fails the second time (the order is no longer open). */
  async cancelMany(userId: string, orderIds: string[]): Promise<{ results: CancelResult[]; seq: bigint }> {
    let seq = 0n;
    const results = await Promise.all(
      orderIds.map(async (orderId): Promise<CancelResult> => {
        try {
          const { seq: durableAt } = await this.cancelOne(userId, orderId);
          if (durableAt > seq) seq = durableAt;
          return { orderId, success: true };
        } catch (error) {
          return { orderId, success: false, error: messageOf(error) };
        }
      }),
    );
    return { results, seq };
  }

  async cancelInMarkets(userId: string, marketIds: string[]): Promise<MarketsCancelResult> {
    const settled = await Promise.allSettled(marketIds.map((marketId) => this.engine.cancelInMarkets(userId, [marketId])));
    const result: MarketsCancelResult = { cancelled: [], clearedMarkets: [], failedMarkets: [], seq: 0n };
    settled.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        result.cancelled.push(...outcome.value.cancelled);
        result.clearedMarkets.push(marketIds[i]!);
        if (outcome.value.seq > result.seq) result.seq = outcome.value.seq;
      } else {
        result.failedMarkets.push(marketIds[i]!);
      }
    });
    return result;
  }

  /**
   * A cancel the engine refused: an order it does not hold open is another user's (403), closed
   * already (ORDER_NOT_OPEN), or unknown (404), as the tables and the records they lack say.
   */
  private async refusal(userId: string, orderId: string, outcome: { code: string; message: string }): Promise<AppError> {
    if (outcome.code !== 'NOT_OPEN') return new AppError(outcome.code as OrderRuleCode, outcome.message);
    const order = await this.engine.findOrder(orderId);
    if (!order) return notFound('order');
    if (order.user_id !== userId) return new AppError('FORBIDDEN', 'this order belongs to another user');
    return new AppError('ORDER_NOT_OPEN', `the order is ${order.status} and can no longer be cancelled`);
  }
}

/**
 * A failed item's error, `CODE: message` as a batch create's items say it (README.md), so a bot
 * tells an order closed already (ORDER_NOT_OPEN) from one to retry (SERVICE_UNAVAILABLE); any other
 * error is the store's or the engine's trouble, retried safely, and its text is not the caller's.
 */
const messageOf = (error: unknown): string => (error instanceof AppError ? `${error.code}: ${error.message}` : 'SERVICE_UNAVAILABLE: the order could not be cancelled now; retry');
