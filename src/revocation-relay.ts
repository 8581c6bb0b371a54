import type { Logger } from 'pino';
import type { Identity } from './identity/index.ts';
import type { Revocation } from './identity/revocations.ts';
import type { Realtime, RedisFanout } from './realtime/index.ts';

/**
 * Credentials that stop working stop everywhere at once (EXTENSIONS.md section 2): a revocation
 * on this node disconnects this node's `/user` sockets opened with it and, with Redis, is
 * published to the other nodes, which drop it from their memory and disconnect theirs. REST on
 * other nodes does not wait for the message: they check the shared store (identity README).
 */
export async function relayRevocations(identity: Identity, realtime: Realtime, fanout: RedisFanout | undefined, logger: Logger): Promise<void> {
  const channel = `${fanout?.key}-revocations`;
  identity.revocations.on((revocation) => {
    realtime.revoke(revocation);
    fanout?.publish(channel, JSON.stringify(revocation)).catch((error: unknown) => logger.warn({ err: error }, 'could not publish a revocation to the other nodes'));
  });
  await fanout?.subscribe(channel, (message) => {
    const revocation = parseRevocation(message);
    if (!revocation) return logger.warn({ message }, 'ignored a malformed revocation message');
    identity.applyRemote(revocation);
    realtime.revoke(revocation);
  });
}

function parseRevocation(message: string): Revocation | undefined {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (typeof value.apiKey === 'string') return { apiKey: value.apiKey };
    if (typeof value.sessionId === 'string' && typeof value.expiresAtMs === 'number') return { sessionId: value.sessionId, expiresAtMs: value.expiresAtMs };
  } catch {
    // not JSON: malformed
  }
  return undefined;
}
