/**
 * Counters that rate limits are built on. Several nodes must count together (EXTENSIONS.md
 * section 12), so there are two implementations of one interface: in this process (one node), and
 * in Redis (REDIS_URL), where each operation is one atomic script.
 */
export interface Counters {
  /**
   * Adds `weight` to `key`'s count in the fixed window of `windowMs` that holds `nowMs` (windows
   * start at multiples of `windowMs` on the server clock). Answers the count after adding and when
   * that window ends.
   */
  addToWindow(key: string, weight: number, windowMs: number, nowMs: number): Promise<WindowCount>;
  /**
   * A rolling log: records one use at `nowMs` when fewer than `limit` uses lie in the last
   * `windowMs` (after `nowMs - windowMs`); otherwise records nothing and answers when the oldest
   * use leaves the window.
   */
  takeRolling(key: string, limit: number, windowMs: number, nowMs: number): Promise<RollingTake>;
}

export interface WindowCount {
  count: number;
  windowEndsAtMs: number;
}

export type RollingTake = { taken: true } | { taken: false; freeAtMs: number };

/** The fixed window of `windowMs` holding `nowMs`: its index and its end. */
export function windowOf(windowMs: number, nowMs: number): { index: number; endsAtMs: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, endsAtMs: (index + 1) * windowMs };
}

/** Entries kept in memory at most; the oldest go first beyond it (a flood of invented keys). */
const MEMORY_LIMIT = 200_000;

/** One node's counters: windows forget themselves once ended; logs keep only their last window. */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, WindowCount>();
  private readonly logs = new Map<string, number[]>();

  async addToWindow(key: string, weight: number, windowMs: number, nowMs: number): Promise<WindowCount> {
    const { index, endsAtMs } = windowOf(windowMs, nowMs);
    const id = `${key}@${windowMs}:${index}`;
    let entry = this.windows.get(id);
    if (!entry) {
      this.forgetEnded(nowMs);
      entry = { count: 0, windowEndsAtMs: endsAtMs };
      this.windows.set(id, entry);
    }
    entry.count += weight;
    return { ...entry };
  }

  async takeRolling(key: string, limit: number, windowMs: number, nowMs: number): Promise<RollingTake> {
    const recent = (this.logs.get(key) ?? []).filter((t) => t > nowMs - windowMs);
    if (recent.length >= limit) {
      this.logs.set(key, recent);
      return { taken: false, freeAtMs: recent[0]! + windowMs };
    }
    recent.push(nowMs);
    this.logs.delete(key);
    if (this.logs.size >= MEMORY_LIMIT) this.logs.delete(this.logs.keys().next().value!);
    this.logs.set(key, recent);
    return { taken: true };
  }

  /** Drops ended windows from the oldest created on, and the oldest beyond the memory bound. */
  private forgetEnded(nowMs: number): void {
    for (const [id, entry] of this.windows) {
      if (entry.windowEndsAtMs > nowMs && this.windows.size < MEMORY_LIMIT) return;
      this.windows.delete(id);
    }
  }
}
