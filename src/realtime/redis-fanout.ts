import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-adapter';
import { connectRedis, type RedisConnection as RedisClient } from '../shared-state/redis-commands.ts';
import { inRedis } from '../shared-state/unavailable.ts';
import type { RealtimeLogger } from './types.ts';

export interface RedisFanout {
  /** The Socket.IO adapter factory (`new Server(http, { adapter })`). */
  readonly adapter: ReturnType<typeof createAdapter>;
  /** The channel prefix the nodes of this exchange share. */
  readonly key: string;
  /** Resolves once every subscription the adapters asked for so far is active in Redis. */
  untilSubscribed(): Promise<void>;
  /**
   * Publishes on the adapters' publishing connection, so a subscriber receives it in order with
   * the room broadcasts this node published before and after it. Resolves with the number of
   * subscribers that received it.
   */
  publish(channel: string, message: string): Promise<number>;
  /**
   * Listens on the adapters' subscribed connection: the listener runs synchronously as the message
   * is read, in order with the room broadcasts the adapters deliver. Resolves once active.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects the two clients the Redis adapter needs: one publishes every room broadcast, the other
 * sits in subscriber mode. A Redis that cannot be reached at boot is an error (the node would
 * otherwise serve only its own clients, silently); one lost later is retried with backoff.
 * `key` prefixes every channel: nodes of one exchange share it, and exchanges sharing one Redis
 * (or test runs) stay apart when their keys differ.
 */
export async function connectRedisFanout(url: string, logger: RealtimeLogger, key = 'socket.io'): Promise<RedisFanout> {
  const publisher = await connectClient(url, 'publisher', logger);
  let subscriber: RedisClient;
  try {
    subscriber = await connectClient(url, 'subscriber', logger);
  } catch (error) {
    publisher.destroy();
    throw error;
  }
  const barrierChannel = `socket.io-ready#${randomUUID()}`;
  const ignore = (): void => {};
  return {
    key,
    adapter: createAdapter(publisher, subscriber, { key }),
    // Redis answers one connection's commands in order, so once a later SUBSCRIBE is acknowledged
    // the adapters' earlier (unawaited) SUBSCRIBE and PSUBSCRIBE are active too.
    async untilSubscribed() {
      await subscriber.subscribe(barrierChannel, ignore);
      await subscriber.unsubscribe(barrierChannel, ignore);
    },
    // Bounded like every command a request waits on (a relay's announce): a frozen Redis is a 503, not a hang.
    publish: (channel, message) => inRedis(() => publisher.publish(channel, message)),
    subscribe: (channel, listener) => subscriber.subscribe(channel, listener),
    unsubscribe: (channel, listener) => subscriber.unsubscribe(channel, listener),
    // close() lets queued commands (the adapters' unsubscribes) finish before the connection ends.
    async close() {
      await Promise.allSettled([publisher.close(), subscriber.close()]);
    },
  };
}

function connectClient(url: string, role: string, logger: RealtimeLogger): Promise<RedisClient> {
  const onLost = (error: unknown) => logger.warn({ err: error, role }, 'Redis connection of the real-time fan-out failed; reconnecting');
  return connectRedis(url, `real-time fan-out (${role})`, onLost, { offlineQueue: true });
}
