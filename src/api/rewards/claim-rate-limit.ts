import type { Clock } from '../../clock.ts';
import type { Counters } from '../../shared-state/counters.ts';
import { AppError } from '../../contract/errors.ts';

/**
 * The claim limit (SPEC.md section 8, EXTENSIONS.md section 5): `limit` requests per user in any
 * rolling `windowMs` of server time. Over it: 429 RATE_LIMITED with Retry-After in whole seconds,
 * until the oldest request in the window leaves it. Counted in the shared counters, so the limit
 * holds across nodes with REDIS_URL (EXTENSIONS.md section 12).
 */
export class ClaimRateLimiter {
  constructor(private readonly counters: Counters, private readonly clock: Clock, private readonly limit = 6, private readonly windowMs = 60_000) {}

  async check(userId: string): Promise<void> {
    const now = this.clock.nowMs();
    const take = await this.counters.takeRolling(`claims:${userId}`, this.limit, this.windowMs, now);
    if (take.taken) return;
    const retryAfterSec = Math.max(1, Math.ceil((take.freeAtMs - now) / 1000));
    throw new AppError('RATE_LIMITED', `at most ${this.limit} claims per minute`, { 'retry-after': String(retryAfterSec) });
  }
}
