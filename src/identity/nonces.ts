import type { RedisCommands } from '../shared-state/index.ts';
import { inRedis } from '../shared-state/index.ts';

/**
 * Where unused sign-in nonces wait for their login (issue 38): never the database, since
 * `GET /auth/nonce` is public and each nonce would be a write anyone can make. In this process, a
 * bounded map; with REDIS_URL, Redis, so that a nonce issued by one node signs in on any other.
 * Both forget a nonce when it expires, and both spend it once.
 */
export interface NonceStore {
  /** Keeps `nonce` until `expiresAtMs` on the server clock (`lifetimeMs` from now). */
  issue(nonce: string, expiresAtMs: number, lifetimeMs: number): Promise<void>;
  /** Spends `nonce`: true once if it was issued and has not expired at `nowMs`, false otherwise. */
  consume(nonce: string, nowMs: number): Promise<boolean>;
}

/** The most unused nonces one process keeps: past it, the oldest is dropped (it would expire first anyway). */
export const MAX_LOCAL_NONCES = 100_000;

export class MemoryNonces implements NonceStore {
  /** Nonce → expiry, in issue order (a Map iterates in insertion order): the oldest first. */
  private readonly nonces = new Map<string, number>();

  constructor(private readonly capacity = MAX_LOCAL_NONCES) {}

  get size(): number {
    return this.nonces.size;
  }

  async issue(nonce: string, expiresAtMs: number, lifetimeMs: number): Promise<void> {
    this.sweep(expiresAtMs - lifetimeMs);
    while (this.nonces.size >= this.capacity) this.nonces.delete(this.nonces.keys().next().value!);
    this.nonces.set(nonce, expiresAtMs);
  }

  async consume(nonce: string, nowMs: number): Promise<boolean> {
    const expiresAtMs = this.nonces.get(nonce);
    if (expiresAtMs === undefined) return false;
    this.nonces.delete(nonce);
    return expiresAtMs > nowMs;
  }

  /**
   * Drops the expired nonces at the front. Every nonce lives equally long, so issue order is
   * expiry order: the sweep stops at the first live one, O(expired) work per call.
   */
  private sweep(nowMs: number): void {
    for (const [nonce, expiresAtMs] of this.nonces) {
      if (expiresAtMs > nowMs) break;
      this.nonces.delete(nonce);
    }
  }
}

/** Nonces in Redis, shared by every node: one key per nonce, expiring on its own; spending is GETDEL. */
export class RedisNonces implements NonceStore {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string) {}

  async issue(nonce: string, expiresAtMs: number, lifetimeMs: number): Promise<void> {
    await inRedis(() => this.redis.set(this.keyOf(nonce), String(expiresAtMs), { PX: lifetimeMs }));
  }

  async consume(nonce: string, nowMs: number): Promise<boolean> {
    const value = await inRedis(() => this.redis.getDel(this.keyOf(nonce)));
    return typeof value === 'string' && Number(value) > nowMs;
  }

  private keyOf(nonce: string): string {
    return `${this.prefix}:siwe-nonce:${nonce}`;
  }
}
