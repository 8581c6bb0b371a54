import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a loopback port to `target` (host:port), that a test can cut: every connection
 * through it is reset and new ones are refused, as when the database's host goes down, until
 * `restore()`.
 */
export interface TcpCut {
  readonly port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpCut(targetHost: string, targetPort: number): Promise<TcpCut> {
  let open = true;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (!open) return client.resetAndDestroy();
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
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
