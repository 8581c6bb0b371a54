/**
 * Remembers the HMAC signatures accepted inside the timestamp window, so each is accepted once.
 * A signature's timestamp is at most one window from the time it is seen, so an entry can be
 * forgotten once its own timestamp is a window old: from then on the window check refuses it.
 * Memory is bounded by the requests of about two windows; entries leave in arrival order.
 */
export class ReplayGuard {
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
