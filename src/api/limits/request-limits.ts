import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { RateWindow } from '../../config.ts';
import type { Counters } from '../../shared-state/counters.ts';
import { AppError } from '../../contract/errors.ts';

/** EXTENSIONS.md section 10: RATE_LIMIT_ORDERS, RATE_LIMIT_REQUESTS, RATE_LIMIT_PUBLIC (empty: off). */
export interface RatePolicy {
  orders: readonly RateWindow[];
  requests: readonly RateWindow[];
  public: readonly RateWindow[];
}

/** Operations routes are never limited: probes and scrapers must see a node under load. */
const EXEMPT_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The per-request limits. Each request counts against exactly one budget:
 * - an order command of an API key (route config `orderCommand`, its weight: one per order of a
 *   batch, one per id of a batch cancel, one otherwise) against RATE_LIMIT_ORDERS of that key;
 * - any other request of a signed-in caller against RATE_LIMIT_REQUESTS of its API key or session;
 * - a request without valid user credentials against RATE_LIMIT_PUBLIC of its client address
 *   (failed sign-ins and invented keys included, so guessing is bounded too).
 * The operator's admin token and the operations routes are not limited. A refused request still
 * counts, so hammering does not shorten the wait.
 */
export class RequestLimits {
  constructor(private readonly counters: Counters, private readonly clock: Clock, private readonly policy: RatePolicy) {}

  /** After authentication succeeded (or the route is public). */
  async afterAuth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.isAdmin || EXEMPT_ROUTES.has(request.routeOptions.url ?? '')) return;
    const caller = request.caller;
    const weight = request.routeOptions.config.requestWeight?.(request.body) ?? 1;
    if (caller === null) return this.count(reply, `public:${request.clientAddress}`, weight, this.policy.public);
    const credential = caller.apiKey ?? `session:${caller.sessionId ?? caller.userId}`;
    if (request.routeOptions.config.orderCommand && caller.apiKey) return this.count(reply, `orders:${credential}`, orderCommandWeight(request.body), this.policy.orders);
    return this.count(reply, `requests:${credential}`, weight, this.policy.requests);
  }

  /** After credentials were refused: the attempt counts against the client address. */
  async afterAuthFailure(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.count(reply, `public:${request.clientAddress}`, 1, this.policy.public);
  }

  private async count(reply: FastifyReply, key: string, weight: number, windows: readonly RateWindow[]): Promise<void> {
    if (windows.length === 0) return;
    // A batch weighing more than a whole window would be 429 for ever, whatever Retry-After said:
    // it counts as one request and is refused as too large, saying what would pass.
    const smallest = windows.reduce((a, b) => (b.limit < a.limit ? b : a));
    if (weight > smallest.limit) {
      await this.count(reply, key, 1, windows);
      throw new AppError('VALIDATION_FAILED', `this request counts ${weight} against a rate limit of ${smallest.limit} per ${smallest.windowMs / 1000} s, so it can never pass; send at most ${smallest.limit} per request`);
    }
    const nowMs = this.clock.nowMs();
    // Redis failing here is a SharedStateUnavailableError: 503 with Retry-After (errors.ts).
    const counts = await Promise.all(windows.map((w) => this.counters.addToWindow(key, weight, w.windowMs, nowMs)));
    // The headers describe the tightest window: the one with the least room left.
    const states = windows.map((w, i) => ({ ...w, count: counts[i]!.count, resetMs: counts[i]!.windowEndsAtMs - nowMs }));
    const tightest = states.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    reply.header('ratelimit-limit', String(tightest.limit));
    reply.header('ratelimit-remaining', String(Math.max(0, tightest.limit - tightest.count)));
    reply.header('ratelimit-reset', String(Math.ceil(tightest.resetMs / 1000)));
    reply.header('ratelimit-policy', windows.map((w) => `${w.limit};w=${Math.ceil(w.windowMs / 1000)}`).join(', '));
    const exceeded = states.filter((s) => s.count > s.limit);
    if (exceeded.length === 0) return;
    const waitMs = Math.max(...exceeded.map((s) => s.resetMs));
    const first = exceeded[0]!;
    throw new AppError('RATE_LIMITED', `rate limit of ${first.limit} per ${first.windowMs / 1000} s exceeded; retry later`, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
  }
}

/** The weight of an order command: the orders of a batch, the ids of a batch cancel, else one. */
export function orderCommandWeight(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 1;
  const { orders, orderIds } = body as { orders?: unknown; orderIds?: unknown };
  if (Array.isArray(orders)) return Math.max(1, orders.length);
  if (Array.isArray(orderIds)) return Math.max(1, orderIds.length);
  return 1;
}
