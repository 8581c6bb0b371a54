import { MemoryCounters, type Counters } from './counters.ts';
import { RedisCounters } from './redis-counters.ts';
import { inRedis } from './unavailable.ts';
import type { RedisCommands } from './redis-commands.ts';

export type { Counters, RollingTake, WindowCount } from './counters.ts';
export type { RedisCommands } from './redis-commands.ts';
export { inRedis, SharedStateUnavailableError } from './unavailable.ts';

/** What the nodes of one exchange keep together: in this process alone, or in Redis for all. */
export interface SharedState {
  readonly counters: Counters;
  /** The command connection when REDIS_URL is set (the replay guard's marks use it too). */
  readonly redis: RedisCommands | undefined;
  /** The prefix of every key of this exchange in Redis (`pmx#<cluster id>`). */
  readonly key: string;
  /** Whether Redis answers now (within `inRedis`'s bound); always true without Redis. */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openSharedState(options: { redisUrl: string | undefined; key: string; onLost: (error: unknown) => void }): Promise<SharedState> {
  if (!options.redisUrl) return { counters: new MemoryCounters(), redis: undefined, key: options.key, answers: async () => true, close: async () => {} };
  // The Redis client is loaded only where it is configured: a single node never pays for it at boot.
  const { connectRedis } = await import('./redis-commands.ts');
  const redis = await connectRedis(options.redisUrl, 'rate limits and the replay guard', options.onLost, { offlineQueue: false });
  return {
    counters: new RedisCounters(redis, options.key),
    redis,
    key: options.key,
    answers: () => inRedis(() => redis.ping()).then(() => true, () => false),
    async close() {
      await redis.close();
    },
  };
}
