import { randomUUID } from 'node:crypto';
import { windowOf, type Counters, type RollingTake, type WindowCount } from './counters.ts';
import type { RedisCommands } from './redis-commands.ts';
import { inRedis } from './unavailable.ts';

/** INCRBY, and an expiry on the window's first use so Redis forgets ended windows itself. */
const ADD_TO_WINDOW = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`;

/** A sorted set of use times: drop those out of the window, then take a place if one is free. */
const TAKE_ROLLING = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return -1`;

/**
 * Counters every node shares, in Redis. Windows are numbered by the server clock, so all nodes
 * (which share one clock source, or one manual clock in tests) agree on them; a window's key
 * expires in Redis two windows after its first use, a log's key a window after its last use.
 */
export class RedisCounters implements Counters {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string) {}

  async addToWindow(key: string, weight: number, windowMs: number, nowMs: number): Promise<WindowCount> {
    const { index, endsAtMs } = windowOf(windowMs, nowMs);
    const count = await inRedis(() => this.redis.eval(ADD_TO_WINDOW, { keys: [`${this.prefix}:window:${key}@${windowMs}:${index}`], arguments: [String(weight), String(windowMs * 2)] }));
    return { count: Number(count), windowEndsAtMs: endsAtMs };
  }

  async takeRolling(key: string, limit: number, windowMs: number, nowMs: number): Promise<RollingTake> {
    const answer = await inRedis(() => this.redis.eval(TAKE_ROLLING, { keys: [`${this.prefix}:log:${key}`], arguments: [String(nowMs), String(windowMs), String(limit), `${nowMs}:${randomUUID()}`] }));
    const oldestMs = Number(answer);
    return oldestMs < 0 ? { taken: true } : { taken: false, freeAtMs: oldestMs + windowMs };
  }
}
