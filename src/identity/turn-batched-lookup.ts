interface Asker {
  resolve(found: boolean): void;
  reject(error: unknown): void;
}

/**
 * Answers the membership questions asked during one turn of the event loop, or while the last
 * read was in flight, with one store read. On PostgreSQL every authenticated request asks whether
 * its credential still stands (another node may have revoked it); under load dozens of requests
 * are parsed in the same turn, and one `= ANY` read for all of them costs the event loop one
 * query instead of dozens. The read starts after the turn in which each of its requests started,
 * so it sees every revocation answered before. Reading one at a time cut these reads by a fifth
 * to a third under single orders at 64 connections (2026-11-28: 583 → 406-484 reads per 3 s).
 */
export class TurnBatchedLookup {
  private askers = new Map<string, Asker[]>();
  /** A read is in flight or due: questions asked meanwhile wait for the next one. */
  private reading = false;

  /** `read` answers which of the given keys it finds. */
  constructor(private readonly read: (keys: string[]) => Promise<Set<string>>) {}

  has(key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (!this.reading) {
        this.reading = true;
        setImmediate(() => void this.flush());
      }
      const askers = this.askers.get(key) ?? [];
      askers.push({ resolve, reject });
      this.askers.set(key, askers);
    });
  }

  /**
   * One read at a time: the questions asked while one is in flight may have started after it
   * began, so they are answered by the next read, which starts once this one has returned. Under
   * load that folds the questions of several turns into one read instead of a read per turn.
   */
  private async flush(): Promise<void> {
    const askers = this.askers;
    this.askers = new Map();
    try {
      const found = await this.read([...askers.keys()]);
      for (const [key, waiting] of askers) for (const asker of waiting) asker.resolve(found.has(key));
    } catch (error) {
      for (const waiting of askers.values()) for (const asker of waiting) asker.reject(error);
    } finally {
      if (this.askers.size > 0) setImmediate(() => void this.flush());
      else this.reading = false;
    }
  }
}
