import type { RealtimeNamespace } from './server-types.ts';
import type { DisconnectSessions, RealtimeLogger } from './types.ts';

/**
 * Cancel on disconnect (EXTENSIONS.md section 15): a `/user` socket opened with an API key and
 * `auth.cancelOnDisconnect: true` is recorded in the engine's state when it connects, and its
 * close when it disconnects; the engine cancels the key's orders once no such socket of the key
 * remains and no reconnect named the dropped one within 2 s. Deciding there, not in a timer here,
 * lets a reconnect land on any node and the grace outlive this process.
 *
 * The open is recorded before the socket is accepted, so a client that sees `connect` is covered;
 * when it cannot be (no engine reachable) the handshake is refused rather than accepted unguarded.
 */
export function cancelOnDisconnect(namespace: RealtimeNamespace, sessions: DisconnectSessions, logger: RealtimeLogger): void {
  namespace.use(async (socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const { apiKey } = socket.data;
    if (auth.cancelOnDisconnect !== true || !apiKey) return next();
    try {
      await sessions.opened(apiKey, socket.id, typeof auth.sessionId === 'string' ? auth.sessionId : null);
      socket.data.cancelOnDisconnect = true;
      next();
    } catch (error) {
      logger.warn({ err: error }, 'a cancel-on-disconnect socket could not be recorded; its handshake is refused');
      next(Object.assign(new Error('cancel on disconnect is unavailable now; retry shortly'), { data: { code: 'SERVICE_UNAVAILABLE' } }));
    }
  });
  namespace.on('connection', (socket) => {
    if (!socket.data.cancelOnDisconnect) return;
    const { apiKey } = socket.data;
    socket.on('disconnect', () => {
      sessions.closed(apiKey!, socket.id).catch((error: unknown) => logger.warn({ err: error, apiKey }, 'a cancel-on-disconnect close could not be recorded; the next engine start treats the socket as dropped'));
    });
  });
}

/**
 * When a node takes the engine, which keeps the recorded sockets of live nodes only while they are
 * named again (a socket may have closed while no engine ran): names this node's live
 * cancel-on-disconnect sockets again, each resuming itself.
 */
export async function reaffirmSessions(namespace: RealtimeNamespace, sessions: DisconnectSessions, logger: RealtimeLogger): Promise<void> {
  const guarded = [...namespace.sockets.values()].filter((socket) => socket.data.cancelOnDisconnect && socket.connected);
  await Promise.all(guarded.map((socket) => sessions.opened(socket.data.apiKey!, socket.id, socket.id).catch((error: unknown) => {
    logger.warn({ err: error, apiKey: socket.data.apiKey }, 'a live cancel-on-disconnect socket could not be named again; its orders go after its grace');
  })));
}
