import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { audienceOf } from '../../src/realtime/audience.ts';
import type { RealtimeNamespace } from '../../src/realtime/server-types.ts';

describe('audienceOf: which emits can reach a socket', { timeout: 20_000 }, () => {
  let http: HttpServer;
  let io: Server;
  let client: Socket;

  before(async () => {
    http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    // The client's socket joins `watched` as it connects, as a subscription joins its book's room.
    io.on('connection', (socket) => void socket.join('watched'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'] });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    // The join runs on the server's connection event, which precedes the client's connect.
  });
  after(async () => {
    client.close();
    await io.close();
  });

  const namespace = () => io.of('/') as unknown as RealtimeNamespace;

  it('on one node, emits only to rooms a local socket is in', async () => {
    const audience = audienceOf(namespace(), false);
    assert.equal(audience('nobody'), undefined);
    assert.equal(audience(['nobody', 'nobody-either']), undefined);
    assert.notEqual(audience(['nobody', 'watched']), undefined);
    const received = new Promise((resolve) => client.once('orderbook', resolve));
    audience('watched')?.emit('orderbook', { hello: 'watcher' } as never);
    assert.deepEqual(await received, { hello: 'watcher' });
  });

  it('with a cross-node adapter, emits to every room: the other nodes may have members', () => {
    const audience = audienceOf(namespace(), true);
    assert.notEqual(audience('nobody'), undefined);
    assert.notEqual(audience(['nobody', 'nobody-either']), undefined);
  });

  it('forgets a room once its last socket leaves', async () => {
    const audience = audienceOf(namespace(), false);
    for (const socket of namespace().sockets.values()) await socket.leave('watched');
    assert.equal(audience('watched'), undefined);
  });
});
