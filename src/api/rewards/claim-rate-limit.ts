import type { Clock } from '../../clock.ts';
import { AppError } from '../errors.ts';

/**
 * The claim limit (SPEC.md section 8, EXTENSIONS.md section 5): `limit` requests per user in any
 * rolling `windowMs` of server time. Over it: 429 RATE_LIMITED with Retry-After in whole seconds,
 * until the oldest request in the window leaves it. Kept in memory per node.
 */
export class ClaimRateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly clock: Clock, private readonly limit = 6, private readonly windowMs = 60_000) {}

  check(userId: string): void {
    const now = this.clock.nowMs();
    const recent = (this.hits.get(userId) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.limit) {
      const retryAfterSec = Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
      this.hits.set(userId, recent);
      throw new AppError('RATE_LIMITED', `at most ${this.limit} claims per minute`, { 'retry-after': String(retryAfterSec) });
    }
    recent.push(now);
    this.hits.set(userId, recent);
  }
}
