import { createClient } from 'redis';

/** A node-redis connection. */
export type RedisConnection = ReturnType<typeof createClient>;
/** The connection for plain commands (counters, once-only marks), apart from the pub/sub ones. */
export type RedisCommands = RedisConnection;

/** The longest wait between reconnection attempts after Redis was lost. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Connects one client, or rejects when Redis cannot be reached at boot (a node would otherwise
 * silently act alone). A connection lost later is retried with backoff (at most 2 s apart) and
 * reported to `onLost`. `role` names the connection in errors, and in Redis (`CLIENT LIST` shows
 * `pmx:rate-limits-and-the-replay-guard`, say). Without `offlineQueue`, commands
 * fail at once while disconnected instead of waiting for the reconnect.
 */
export async function connectRedis(url: string, role: string, onLost: (error: unknown) => void, options: { offlineQueue: boolean }): Promise<RedisConnection> {
  let connected = false;
  const client: RedisConnection = createClient({
    url,
    name: `pmx:${role.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
    disableOfflineQueue: !options.offlineQueue,
    socket: { reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) : cause) },
  });
  client.on('error', (error: unknown) => {
    if (connected) onLost(error);
  });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`cannot reach Redis for the ${role}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  connected = true;
  return client;
}
