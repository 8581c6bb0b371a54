/**
 * The ceiling of `bench/fanout.ts`: a bare Socket.IO server in its own process, as the exchange
 * runs in its own. Clients send `join` (acknowledged) to enter the one room; `POST /emit` with a JSON payload
 * broadcasts it to the room as `orderbook-price-change` and answers 204, as an order's
 * acknowledgement follows its book change. Prints its port on stdout once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const ROOM = 'book';

const http = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/emit') {
    response.writeHead(404).end();
    return;
  }
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    io.to(ROOM).emit('orderbook-price-change', JSON.parse(body));
    response.writeHead(204).end();
  });
});
const io = new Server(http, { path: '/socket.io', transports: ['websocket'], serveClient: false });
io.on('connection', (socket) =>
  socket.on('join', (ack: () => void) => {
    void socket.join(ROOM);
    ack();
  }),
);
http.listen(0, '127.0.0.1', () => console.log((http.address() as AddressInfo).port));
process.on('SIGTERM', () => {
  io.close();
  process.exit(0);
});
