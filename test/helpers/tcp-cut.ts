import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a loopback port to `target` (host:port), that a test can break in two ways:
 * - `cut()`: every connection through it is reset and new ones are refused, as when the
 *   database's host goes down;
 * - `stall()`: nothing passes any more and nothing says so, as when the network between the two
 *   drops every packet: connections stay open and silent, new ones are accepted and never answered.
 * `restore()` lets new connections through again; the stalled ones stay silent for good (their
 * packets were lost), so a client that kept one would wait for ever.
 */
export interface TcpCut {
  readonly port: number;
  cut(): void;
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpCut(targetHost: string, targetPort: number): Promise<TcpCut> {
  let state: 'open' | 'cut' | 'stalled' = 'open';
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const silence = (socket: Socket) => {
    socket.unpipe();
    socket.pause();
  };
  const server: Server = createServer((client) => {
    track(client);
    if (state === 'cut') return client.resetAndDestroy();
    if (state === 'stalled') return silence(client);
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      state = 'cut';
      for (const socket of sockets) socket.resetAndDestroy();
    },
    stall() {
      state = 'stalled';
      for (const socket of sockets) silence(socket);
    },
    restore() {
      state = 'open';
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
