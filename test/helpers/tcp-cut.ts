import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a loopback port to `target` (host:port), that a test can break in two ways:
 * - `cut()`: every connection through it is reset and new ones are refused, as when the
 *   database's host goes down;
 * - `stall()`: nothing passes any more and nothing says so, as when the network between the two
 *   drops every packet: connections stay open and silent, new ones are accepted and never answered.
 * `restore()` lets new connections through again; the stalled ones stay silent for good (their
 * packets were lost), so a client that kept one would wait for ever. `stall(opening)` stalls only
 * the connections whose client's first bytes hold `opening` (a Redis connection's name, say), now
 * and later, and leaves the others alone.
 */
export interface TcpCut {
  readonly port: number;
  cut(): void;
  stall(opening?: string): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpCut(targetHost: string, targetPort: number): Promise<TcpCut> {
  let state: 'open' | 'cut' | 'stalled' = 'open';
  let stalledOpening: string | undefined;
  const sockets = new Set<Socket>();
  /** What each client sent first (up to 1 KB), for `stall(opening)`. */
  const openings = new Map<Socket, string>();
  const relays = new Set<{ client: Socket; upstream: Socket }>();
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
    const relay = { client, upstream };
    relays.add(relay);
    client.on('data', (chunk: Buffer) => {
      const opening = openings.get(client) ?? '';
      if (opening.length >= 1024) return;
      openings.set(client, opening + chunk.toString('latin1'));
      if (stalledOpening !== undefined && openings.get(client)!.includes(stalledOpening)) stallRelay(relay);
    });
    client.pipe(upstream).pipe(client);
    client.on('close', () => { upstream.destroy(); relays.delete(relay); openings.delete(client); });
    upstream.on('close', () => client.destroy());
  });
  const stallRelay = ({ client, upstream }: { client: Socket; upstream: Socket }) => {
    client.unpipe();
    upstream.unpipe();
    silence(client);
    silence(upstream);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      state = 'cut';
      for (const socket of sockets) socket.resetAndDestroy();
    },
    stall(opening) {
      if (opening !== undefined) {
        stalledOpening = opening;
        for (const relay of relays) if (openings.get(relay.client)?.includes(opening)) stallRelay(relay);
        return;
      }
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
