import type { RedisCommands } from '../shared-state/index.ts';

/** Where accepted signatures are remembered: this process, or Redis for every node. */
export interface ReplayRecord {
  /** True the first time `key` is seen (and records it); false for a replay. */
  firstSighting(key: string, timestampMs: number, nowMs: number): boolean | Promise<boolean>;
}

/**
 * Remembers the HMAC signatures accepted inside the timestamp window, so each is accepted once.
 * A signature's timestamp is at most one window from the time it is seen, so an entry can be
 * forgotten once its own timestamp is a window old: from then on the window check refuses it.
 * Memory is bounded by the requests of about two windows; entries leave in arrival order.
 */
export class ReplayGuard implements ReplayRecord {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** True the first time `key` is seen (and records it); false for a replay. */
  firstSighting(key: string, timestampMs: number, nowMs: number): boolean {
    this.forgetExpired(nowMs);
    if (this.seen.has(key)) return false;
    this.seen.set(key, timestampMs + this.windowMs);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  /**
   * Drops entries from the oldest arrival on while they are expired. Arrival order is only roughly
   * expiry order, so an expired entry may wait behind a live one, for at most two windows.
   */
  private forgetExpired(nowMs: number): void {
    for (const [key, expiresAtMs] of this.seen) {
      if (expiresAtMs >= nowMs) return;
      this.seen.delete(key);
    }
  }
}

/**
 * The same rule for every node (EXTENSIONS.md section 12): one `SET NX PX` per signature in Redis,
 * which records and checks in one atomic step, kept until the timestamp is a window old (plus a
 * second for clock steps between nodes). Redis outlives a node's restart, so a restarted node
 * refuses what it accepted before.
 */
export class RedisReplayGuard implements ReplayRecord {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string, private readonly windowMs: number) {}

  async firstSighting(key: string, timestampMs: number, nowMs: number): Promise<boolean> {
    const ttlMs = Math.max(1, timestampMs + this.windowMs - nowMs) + 1_000;
    const answer = await this.redis.set(`${this.prefix}:replay:${key}`, '1', { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return answer === 'OK';
  }
}
