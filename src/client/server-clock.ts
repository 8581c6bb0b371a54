/**
 * The client's view of the server clock, from `serverTime` of GET /exchange, so clock skew never
 * makes an HMAC timestamp fall outside the server's window. Timestamps are also unique per
 * client: the server refuses a signature it has already seen, and two identical requests signed
 * in the same millisecond (or on a server whose manual clock stands still) would carry one.
 */
const REMEMBERED_TIMESTAMPS = 10_000;
/**
 * Each client signs up to this much behind its estimate of the server's time, a random amount
 * chosen at every sync: two processes holding one key (two CLI runs, say) that send the same
 * request the same time after their syncs would otherwise sign it identically, and the second
 * would be refused as a replay. Half a second is far inside the 30-second window.
 */
const SPREAD_MS = 500;
/** A shared last timestamp further ahead of this client's estimate than this is stale (a server clock set back): ignored. */
const SHARED_STALE_AHEAD_MS = 5_000;

/**
 * The last HMAC timestamp signed by any of the clients sharing it (clients of one key in several
 * page loads of a browser, say, through localStorage): each signs strictly after it, so no two
 * ever sign the same millisecond, which the random spread only makes unlikely.
 */
export interface SignedTimestamps {
  last(): number | undefined;
  record(timestampMs: number): void;
}

export class ServerClock {
  private offsetMs = 0;
  private readonly used = new Set<number>();

  constructor(private readonly shared?: SignedTimestamps) {}

  /** Records the server's time as seen now; `rttMs` (when known) centres the estimate. */
  sync(serverTimeMs: number, rttMs = 0): void {
    this.offsetMs = serverTimeMs + Math.floor(rttMs / 2) - Date.now() - Math.floor(Math.random() * SPREAD_MS);
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** A timestamp near the server's time that this client has not signed with yet. */
  uniqueTimestampMs(): number {
    if (this.shared) return this.afterShared();
    let timestamp = this.nowMs();
    while (this.used.has(timestamp)) timestamp -= 1;
    this.used.add(timestamp);
    if (this.used.size > REMEMBERED_TIMESTAMPS) this.used.delete(this.used.values().next().value!);
    return timestamp;
  }

  /** Strictly after the sharers' last timestamp, unless that one is stale; recorded for them. */
  private afterShared(): number {
    const now = this.nowMs();
    const last = this.shared!.last();
    const timestamp = last !== undefined && last >= now && last - now < SHARED_STALE_AHEAD_MS ? last + 1 : now;
    this.shared!.record(timestamp);
    return timestamp;
  }
}
