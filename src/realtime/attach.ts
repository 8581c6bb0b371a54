import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { forwardMarketEvents } from './market-fanout.ts';
import { handleMarketSubscriptions } from './market-subscriptions.ts';
import type { RealtimeNamespace, RealtimeServer } from './server-types.ts';
import { engineNodeSnapshots } from './snapshot-sources.ts';
import type { RealtimeOptions } from './types.ts';
import { authenticateUserSockets, forwardUserEvents } from './user-namespace.ts';

export interface Realtime {
  readonly io: RealtimeServer;
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

/**
 * Serves EXTENSIONS.md section 6 on the HTTP server's port: path `/socket.io`, websocket
 * transport, the public default namespace and the authenticated `/user` namespace. Resolves once
 * the node receives the cluster's broadcasts (with `fanout`).
 */
export async function attachRealtime(httpServer: HttpServer, options: RealtimeOptions): Promise<Realtime> {
  const { fanout, books } = options;
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    // The spec names the websocket transport, but socket.io-client's defaults open with
    // long-polling and upgrade; refusing it would fail any client that keeps the defaults.
    // Behind a load balancer with several nodes, polling needs sticky sessions (README).
    transports: ['polling', 'websocket'],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    ...(fanout ? { adapter: fanout.adapter } : {}),
  });
  const market: RealtimeNamespace = io.of('/');
  const user: RealtimeNamespace = io.of('/user');
  handleMarketSubscriptions(market, engineNodeSnapshots(books), options.logger);
  authenticateUserSockets(user, options.handshake, options.logger);
  const stopForwarding = [
    forwardMarketEvents(market, options.events, options.tradeActivityMinUsd, options.logger),
    forwardUserEvents(user, options.events, options.logger),
  ];
  await fanout?.untilSubscribed();

  let closed = false;
  return {
    io,
    async close() {
      if (closed) return;
      closed = true;
      stopForwarding.forEach((stop) => stop());
      for (const namespace of [market, user]) {
        // Local sockets only: io.disconnectSockets() would go through the adapter and disconnect
        // the clients of every node.
        namespace.sockets.forEach((socket) => socket.disconnect(true));
        await namespace.adapter.close();
      }
      io.engine.close();
    },
  };
}
