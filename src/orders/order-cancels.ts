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
}

/**
 * Cancellation (SPEC.md 4.4): one order, a list of orders, or every open order of the caller in
 * some markets. Per-market cancels go to the engine as separate commands so that one market's
 * failure is reported in `failedMarkets` without holding back the others.
 */
export class OrderCancels {
  constructor(private readonly engine: MatchingEngine) {}

  async cancelOne(userId: string, orderId: string): Promise<OrderRow> {
    const outcome = await this.engine.cancel(userId, orderId);
    if (outcome.ok) return outcome.order;
    if (outcome.code === 'NOT_FOUND') throw notFound('order');
    throw new AppError(outcome.code as OrderRuleCode, outcome.message);
  }

  /** Results in request order; a repeated id fails the second time (the order is no longer open). */
  async cancelMany(userId: string, orderIds: string[]): Promise<CancelResult[]> {
    return Promise.all(
      orderIds.map(async (orderId) => {
        const outcome = await this.engine.cancel(userId, orderId).catch((error: unknown) => ({ ok: false as const, message: messageOf(error) }));
        return outcome.ok ? { orderId, success: true } : { orderId, success: false, error: outcome.message };
      }),
    );
  }

  async cancelInMarkets(userId: string, marketIds: string[]): Promise<MarketsCancelResult> {
    const settled = await Promise.allSettled(marketIds.map((marketId) => this.engine.cancelInMarkets(userId, [marketId])));
    const result: MarketsCancelResult = { cancelled: [], clearedMarkets: [], failedMarkets: [] };
    settled.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        result.cancelled.push(...outcome.value);
        result.clearedMarkets.push(marketIds[i]!);
      } else {
        result.failedMarkets.push(marketIds[i]!);
      }
    });
    return result;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : 'the order could not be cancelled; retry');
