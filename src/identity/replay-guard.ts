import { inRedis, type RedisCommands } from '../shared-state/index.ts';

/** Where accepted signatures are remembered: this process, or Redis for every node. */
export interface ReplayRecord {
  /** True the first time `key` is seen (and records it); false for a replay. */
  firstSighting(key: string, timestampMs: number, nowMs: number): Promise<boolean>;
  /**
   * Records `holder` as the holder of `key` when `key` is new, or when it is held by
   * `previousHolder` (a reconnect naming the connection it replaces); false otherwise.
   */
  claim(key: string, previousHolder: string | undefined, holder: string, timestampMs: number, nowMs: number): Promise<boolean>;
}

/** The holder recorded by firstSighting: no connection can name it. */
const SEEN = '';

/**
 * Remembers the HMAC signatures accepted inside the timestamp window, so each is accepted once.
 * A signature's timestamp is at most one window from the time it is seen, so an entry can be
 * forgotten once its own timestamp is a window old: from then on the window check refuses it.
 * Memory is bounded by the requests of about two windows; entries leave in arrival order.
 */
export class ReplayGuard implements ReplayRecord {
  private readonly seen = new Map<string, { holder: string; expiresAtMs: number }>();

  constructor(private readonly windowMs: number) {}

  async firstSighting(key: string, timestampMs: number, nowMs: number): Promise<boolean> {
    return this.claimNow(key, undefined, SEEN, timestampMs, nowMs);
  }

  async claim(key: string, previousHolder: string | undefined, holder: string, timestampMs: number, nowMs: number): Promise<boolean> {
    return this.claimNow(key, previousHolder, holder, timestampMs, nowMs);
  }

  /** Synchronous: the check and the record happen with no await between them. */
  claimNow(key: string, previousHolder: string | undefined, holder: string, timestampMs: number, nowMs: number): boolean {
    this.forgetExpired(nowMs);
    const current = this.seen.get(key);
    if (current && (previousHolder === undefined || current.holder === SEEN || current.holder !== previousHolder)) return false;
    this.seen.set(key, { holder, expiresAtMs: timestampMs + this.windowMs });
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
    for (const [key, entry] of this.seen) {
      if (entry.expiresAtMs >= nowMs) return;
      this.seen.delete(key);
    }
  }
}

/** Takes the key when it is free or held by ARGV[1] (never when seen on REST), for ARGV[3] ms; 1 when taken, else 0. */
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current and (current == '' or current ~= ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/**
 * The same rule for every node (EXTENSIONS.md section 12): one atomic command per signature in
 * Redis (`SET NX PX`, or a script for a reconnect), kept until the timestamp is a window old plus
 * a second for clock steps between nodes. Redis outlives a node's restart, so a restarted node
 * refuses what it accepted before.
 */
export class RedisReplayGuard implements ReplayRecord {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string, private readonly windowMs: number) {}

  async firstSighting(key: string, timestampMs: number, nowMs: number): Promise<boolean> {
    const answer = await inRedis(() => this.redis.set(this.keyOf(key), SEEN, { condition: 'NX', expiration: { type: 'PX', value: this.ttlMs(timestampMs, nowMs) } }));
    return answer === 'OK';
  }

  async claim(key: string, previousHolder: string | undefined, holder: string, timestampMs: number, nowMs: number): Promise<boolean> {
    // Without a previous holder only a free key is taken: "\0" matches no stored holder.
    const answer = await inRedis(() => this.redis.eval(CLAIM, { keys: [this.keyOf(key)], arguments: [previousHolder ?? '\0', holder, String(this.ttlMs(timestampMs, nowMs))] }));
    return Number(answer) === 1;
  }

  private keyOf(key: string): string {
    return `${this.prefix}:replay:${key}`;
  }

  private ttlMs(timestampMs: number, nowMs: number): number {
    return Math.max(1, timestampMs + this.windowMs - nowMs) + 1_000;
  }
}
