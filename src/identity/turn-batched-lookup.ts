interface Asker {
  resolve(found: boolean): void;
  reject(error: unknown): void;
}

/**
 * Answers the membership questions asked during one turn of the event loop with one store read.
 * On PostgreSQL every authenticated request asks whether its credential still stands (another
 * node may have revoked it); under load dozens of requests are parsed in the same turn, and one
 * `= ANY` read for all of them costs the event loop one query instead of dozens. The read starts
 * after the turn in which each request started, so it sees every revocation answered before.
 */
export class TurnBatchedLookup {
  private askers = new Map<string, Asker[]>();

  /** `read` answers which of the given keys it finds. */
  constructor(private readonly read: (keys: string[]) => Promise<Set<string>>) {}

  has(key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (this.askers.size === 0) setImmediate(() => void this.flush());
      const askers = this.askers.get(key) ?? [];
      askers.push({ resolve, reject });
      this.askers.set(key, askers);
    });
  }

  private async flush(): Promise<void> {
    const askers = this.askers;
    this.askers = new Map();
    try {
      const found = await this.read([...askers.keys()]);
      for (const [key, waiting] of askers) for (const asker of waiting) asker.resolve(found.has(key));
    } catch (error) {
      for (const waiting of askers.values()) for (const asker of waiting) asker.reject(error);
    }
  }
}
