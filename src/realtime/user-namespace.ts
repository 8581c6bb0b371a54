import { AppError } from '../contract/errors.ts';
import type { MmpTriggeredMessage } from '../contract/realtime.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Audience } from './audience.ts';
import { listenSafely } from './bus-listener.ts';
import { userRoom } from './rooms.ts';
import type { RealtimeNamespace } from './server-types.ts';
import type { RealtimeLogger, RevokedCredential, UserHandshakeVerifier } from './types.ts';

/** What a refused `/user` handshake carries to the client's `connect_error`. */
export interface HandshakeRefusal extends Error {
  data: { code: 'UNAUTHORIZED' };
}

/**
 * `/user`: the handshake middleware verifies the credentials before the socket joins the
 * namespace, so no unauthenticated socket ever belongs to it; an accepted socket joins its
 * user's room in the same tick as its connect packet, so every event published after the client
 * sees `connect` reaches it. A handshake that resumes a connection (`auth.sessionId`, the
 * replay record's one exception: EXTENSIONS.md section 6) disconnects that connection if it is
 * still open.
 */
export function authenticateUserSockets(namespace: RealtimeNamespace, verifier: UserHandshakeVerifier, logger: RealtimeLogger): void {
  namespace.use(async (socket, next) => {
    try {
      const { userId, apiKey, sessionId, expiresAtMs } = await verifier.verify(socket.handshake.auth, socket.id);
      const resumed = (socket.handshake.auth as Record<string, unknown>).sessionId;
      Object.assign(socket.data, { userId, apiKey, sessionId, expiresAtMs, resumes: apiKey && typeof resumed === 'string' ? resumed : undefined });
      next();
    } catch (error) {
      next(handshakeRefusal(error, logger));
    }
  });
  namespace.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
    // A reconnect replaces the connection it resumes, on whichever node that one still lives (every
    // socket is in the room of its own id): one handshake signature, one live connection.
    if (socket.data.resumes) namespace.in(socket.data.resumes).disconnectSockets(true);
  });
}

/** Disconnects this node's `/user` sockets opened with a credential that stopped working. */
export function disconnectRevoked(namespace: RealtimeNamespace, revoked: RevokedCredential): void {
  for (const socket of namespace.sockets.values()) {
    const { apiKey, sessionId } = socket.data;
    if ('apiKey' in revoked ? apiKey === revoked.apiKey : sessionId === revoked.sessionId) socket.disconnect(true);
  }
}

/** Disconnects this node's session sockets whose token expired by the server clock. */
export function disconnectExpired(namespace: RealtimeNamespace, nowMs: number): void {
  for (const socket of namespace.sockets.values()) {
    const { expiresAtMs } = socket.data;
    if (expiresAtMs !== undefined && expiresAtMs <= nowMs) socket.disconnect(true);
  }
}

/** Forwards the bus's user events to the rooms of their users only. Returns the unsubscribe function. */
export function forwardUserEvents(audience: Audience, events: DomainEvents, logger: RealtimeLogger): () => void {
  const unsubscribers = [
    listenSafely(events, 'order-update', logger, ({ userId, type, order, reason }) => {
      audience(userRoom(userId))?.emit('order-update', reason ? { type, order, reason } : { type, order });
    }),
    listenSafely(events, 'mmp-triggered', logger, ({ userId, update }) => {
      audience(userRoom(userId))?.emit('mmp-triggered', update as MmpTriggeredMessage);
    }),
    // One emit to the rooms of both parties: Socket.IO sends once per socket even when a user
    // is on both sides (a self-trade that got through) or holds several connections.
    listenSafely(events, 'trade-update', logger, ({ userIds, trade }) => {
      if (userIds.length === 0) return;
      audience(userIds.map(userRoom))?.emit('trade-update', trade);
    }),
    listenSafely(events, 'reward-claim-update', logger, ({ userId, update }) => {
      audience(userRoom(userId))?.emit('user-reward-claim-update', update);
    }),
  ];
  return () => unsubscribers.forEach((unsubscribe) => { unsubscribe(); });
}

/**
 * Credential failures (AppError) show their message; anything else is an internal failure whose
 * details stay in the log, and the client sees a generic refusal.
 */
function handshakeRefusal(error: unknown, logger: RealtimeLogger): HandshakeRefusal {
  const known = error instanceof AppError;
  if (!known) logger.error({ err: error }, '/user handshake verification failed unexpectedly');
  const refusal = new Error(known ? error.message : 'authentication failed') as HandshakeRefusal;
  refusal.data = { code: 'UNAUTHORIZED' };
  return refusal;
}
