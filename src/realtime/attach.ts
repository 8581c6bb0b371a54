import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server } from 'socket.io';
import { audienceOf } from './audience.ts';
import { cancelOnDisconnect, reaffirmSessions } from './cancel-on-disconnect.ts';
import { forwardMarketEvents } from './market-fanout.ts';
import { handleMarketSubscriptions } from './market-subscriptions.ts';
import type { RealtimeNamespace, RealtimeServer } from './server-types.ts';
import { engineNodeSnapshots } from './snapshot-sources.ts';
import { ConnectionsPerAddress } from './connection-limit.ts';
import type { RealtimeOptions, RevokedCredential } from './types.ts';
import { authenticateUserSockets, disconnectExpired, disconnectRevoked, forwardUserEvents } from './user-namespace.ts';

export interface Realtime {
  readonly io: RealtimeServer;
  /** Disconnects this node's `/user` sockets opened with the credential (every node calls it). */
  revoke(credential: RevokedCredential): void;
  /** This node took the engine: its live cancel-on-disconnect sockets are recorded again (EXTENSIONS.md section 15). */
  reaffirmSessions(): Promise<void>;
  /**
   * Disconnects this node's sockets and stops listening to the bus and to Redis. It leaves the
   * HTTP server and the Redis connections (`fanout`) open (their owner closes them), but must run
   * before the HTTP server's close, which otherwise waits for the upgraded websocket connections
   * (Fastify: a `preClose` hook).
   */
  close(): Promise<void>;
}

/** The largest client message accepted: 500 ids of 78 digits with JSON quoting fit well within it. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** How often session sockets are checked against their token's expiry (real time). */
const EXPIRY_SWEEP_MS = 1_000;

/**
 * Serves EXTENSIONS.md section 6 on the HTTP server's port: path `/socket.io`, websocket
 * transport, the public default namespace and the authenticated `/user` namespace. Resolves once
 * the node receives the cluster's broadcasts (with `fanout`).
 */
export async function attachRealtime(httpServer: HttpServer, options: RealtimeOptions): Promise<Realtime> {
  const { fanout, books } = options;
  const connections = new ConnectionsPerAddress(options.socketsPerAddress, options.clientAddress);
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    // The spec names the websocket transport, but socket.io-client's defaults open with
    // long-polling and upgrade; refusing it would fail any client that keeps the defaults.
    // Behind a load balancer with several nodes, polling needs sticky sessions (README).
    transports: ['polling', 'websocket'],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    // A new connection beyond SOCKETS_PER_ADDRESS is refused at its handshake (HTTP 403).
    allowRequest: (request, callback) => callback(null, connections.admits(request)),
    ...(fanout ? { adapter: fanout.adapter } : {}),
  });
  const market: RealtimeNamespace = io.of('/');
  const user: RealtimeNamespace = io.of('/user');
  handleMarketSubscriptions(market, engineNodeSnapshots(books), (tokenId) => books.local.snapshot(tokenId) !== undefined, options.logger);
  authenticateUserSockets(user, options.handshake, options.logger);
  if (options.sessions) cancelOnDisconnect(user, options.sessions, options.logger);
  io.engine.on('connection', (raw: { request: IncomingMessage; once(event: 'close', listener: () => void): void }) => connections.opened(raw));
  const sweep = setInterval(() => disconnectExpired(user, options.clock.nowMs()), EXPIRY_SWEEP_MS);
  sweep.unref();
  const stopForwarding = [
    forwardMarketEvents(audienceOf(market, fanout !== undefined), options.events, options.tradeActivityMinUsd, options.logger),
    forwardUserEvents(audienceOf(user, fanout !== undefined), options.events, options.logger),
  ];
  await fanout?.untilSubscribed();

  let closed = false;
  return {
    io,
    revoke: (credential) => disconnectRevoked(user, credential),
    reaffirmSessions: async () => {
      if (options.sessions) await reaffirmSessions(user, options.sessions, options.logger);
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweep);
      for (const stop of stopForwarding) stop();
      for (const namespace of [market, user]) {
        // Local sockets only: io.disconnectSockets() would go through the adapter and disconnect
        // the clients of every node.
        for (const socket of namespace.sockets.values()) socket.disconnect(true);
        await namespace.adapter.close();
      }
      io.engine.close();
    },
  };
}
