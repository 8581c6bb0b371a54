import type { Clock } from '../../clock.ts';
import type { Counters } from '../../shared-state/counters.ts';
import { AppError } from '../../contract/errors.ts';

export interface RollingRule {
  /** What is counted, the prefix of each subject's key in the counters. */
  readonly counted: string;
  readonly limit: number;
  readonly windowMs: number;
  /** The refusal's message. */
  readonly refusal: string;
}

/**
 * At most `limit` uses per subject in any rolling `windowMs` of server time. Over it: 429
 * RATE_LIMITED with Retry-After in whole seconds, until the oldest use in the window leaves it; a
 * refused use is not counted. Counted in the shared counters, so the limit holds across nodes with
 * REDIS_URL (EXTENSIONS.md section 12).
 */
export class RollingLimit {
  constructor(private readonly counters: Counters, private readonly clock: Clock, private readonly rule: RollingRule) {}

  async take(subject: string): Promise<void> {
    const { counted, limit, windowMs, refusal } = this.rule;
    const now = this.clock.nowMs();
    const take = await this.counters.takeRolling(`${counted}:${subject}`, limit, windowMs, now);
    if (take.taken) return;
    const retryAfterSec = Math.max(1, Math.ceil((take.freeAtMs - now) / 1000));
    throw new AppError('RATE_LIMITED', refusal, { 'retry-after': String(retryAfterSec) });
  }
}
