import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { AppError } from '../../src/contract/errors.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { attachRealtime, type Realtime } from '../../src/realtime/attach.ts';
import { BookRelay } from '../../src/realtime/book-relay.ts';
import { exchangeInfo, type ApiCredentials } from '../helpers/auth-client.ts';
import { get } from '../helpers/http.ts';
import type { ApiServer } from '../helpers/server.ts';
import { connectRedisFanout } from '../../src/realtime/redis-fanout.ts';
import type { ClientToServerEvents, LevelChange, OrderbookPriceChange, ServerToClientEvents } from '../../src/contract/realtime.ts';
import type { BookLevel, BookSnapshot } from '../../src/contract/realtime.ts';
import type { BookSnapshotSource, RealtimeLogger, UserHandshakeVerifier } from '../../src/realtime/types.ts';

export type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

export const TIMESTAMP_MS = 1_700_000_000_000;

/** Test books: a Map of level totals per token; `change` applies levels, bumps seq and publishes like the engine. */
export class TestBooks implements BookSnapshotSource {
  private readonly books = new Map<string, { market: string; seq: number; bids: Map<string, string>; asks: Map<string, string> }>();

  constructor(private readonly events: DomainEvents) {}

  addToken(tokenId: string, market = `0x${'ab'.repeat(32)}`): void {
    this.books.set(tokenId, { market, seq: 0, bids: new Map(), asks: new Map() });
  }

  snapshot(tokenId: string): BookSnapshot | undefined {
    const book = this.books.get(tokenId);
    if (!book) return undefined;
    const bids = levels(book.bids, 'buy');
    const asks = levels(book.asks, 'sell');
    return { market: book.market, asset_id: tokenId, hash: bookHash(book.market, tokenId, bids, asks), timestamp: TIMESTAMP_MS, bids, asks, tick_size: '0.01', seq: book.seq };
  }

  /** Applies the level changes, then publishes them with the next seq and the new hash. */
  change(tokenId: string, changes: LevelChange[]): void {
    const book = this.books.get(tokenId);
    if (!book) throw new Error(`unknown test token ${tokenId}`);
    for (const change of changes) applyLevelChange(change.side === 'buy' ? book.bids : book.asks, change);
    book.seq += 1;
    const { hash } = this.snapshot(tokenId)!;
    this.events.publish('book-change', { marketId: book.market, assetId: tokenId, seq: book.seq, hash, timestampMs: TIMESTAMP_MS + book.seq, changes });
  }
}

export function applyLevelChange(levelsByPrice: Map<string, string>, change: LevelChange): void {
  if (change.size === '0') levelsByPrice.delete(change.price);
  else levelsByPrice.set(change.price, change.size);
}

/** Best first: bids descending, asks ascending. Test prices have two decimals, so Number sorts them exactly. */
export function levels(levelsByPrice: Map<string, string>, side: 'buy' | 'sell'): BookLevel[] {
  const sorted = [...levelsByPrice].sort(([a], [b]) => (side === 'buy' ? Number(b) - Number(a) : Number(a) - Number(b)));
  return sorted.map(([price, size]) => ({ price, size }));
}

export function bookHash(market: string, assetId: string, bids: BookLevel[], asks: BookLevel[]): string {
  return createHash('sha256').update(JSON.stringify([market, assetId, bids, asks])).digest('hex');
}

/** Accepts `{token: 'token-of-<userId>'}` only, as identity's verifier would accept a valid JWT. */
export const testVerifier: UserHandshakeVerifier = {
  async verify(auth) {
    const token = (auth as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string' && token.startsWith('token-of-')) return { userId: token.slice('token-of-'.length) };
    throw new AppError('UNAUTHORIZED', 'invalid session token');
  },
};

/** Collects what the real-time module logs, so tests can both assert on it and stay quiet. */
export class RecordingLogger implements RealtimeLogger {
  readonly entries: { level: 'warn' | 'error'; message: string; details: object }[] = [];
  warn(details: object, message: string): void { this.entries.push({ level: 'warn', message, details }); }
  error(details: object, message: string): void { this.entries.push({ level: 'error', message, details }); }
}

export interface RealtimeNode {
  url: string;
  events: DomainEvents;
  books: TestBooks;
  logger: RecordingLogger;
  realtime: Realtime;
  /** With `redisUrl`: this node's relay (it serves `books` to the cluster unless `relayBooks`). */
  relay: BookRelay | undefined;
  close(): Promise<void>;
}

export interface RealtimeNodeOptions {
  redisUrl?: string;
  /** The cluster's channel prefix; nodes with different keys never hear each other. */
  redisKey?: string;
  /** The node holds no books: its subscribers' snapshots come from the node that serves them. */
  relayBooks?: boolean;
  tradeActivityMinUsd?: number;
  handshake?: UserHandshakeVerifier;
}

/**
 * A real HTTP server on a free loopback port with the real-time module attached; with `redisUrl`
 * a node of a cluster, wired as src/server.ts wires one.
 */
export async function startRealtimeNode(options: RealtimeNodeOptions = {}): Promise<RealtimeNode> {
  const events = new DomainEvents();
  const books = new TestBooks(events);
  const logger = new RecordingLogger();
  const fanout = options.redisUrl === undefined ? undefined : await connectRedisFanout(options.redisUrl, logger, options.redisKey);
  const relay = fanout ? await BookRelay.connect(fanout, logger) : undefined;
  if (relay && !options.relayBooks) await relay.serve({ snapshot: (tokenId) => books.snapshot(tokenId), lastTradePrice: () => undefined });
  const closeRedis = async () => {
    await relay?.close();
    await fanout?.close();
  };
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const closeHttp = () => new Promise<void>((resolve, reject) => httpServer.close((error) => (error ? reject(error) : resolve())));
  let realtime: Realtime;
  try {
    realtime = await attachRealtime(httpServer, {
      events,
      books: { local: books, relay, runsEngine: () => !options.relayBooks },
      handshake: options.handshake ?? testVerifier,
      fanout,
      tradeActivityMinUsd: options.tradeActivityMinUsd ?? 0,
      logger,
      clock: { nowMs: () => Date.now() },
      socketsPerAddress: 0,
      clientAddress: (request) => request.socket.remoteAddress ?? 'unknown',
    });
  } catch (error) {
    await closeRedis();
    await closeHttp();
    throw error;
  }
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    books,
    logger,
    realtime,
    relay,
    async close() {
      await realtime.close();
      await closeRedis();
      await closeHttp();
    },
  };
}

export interface Received {
  event: string;
  payload: any;
}

/**
 * A connected client that records every server event in arrival order. `next()` returns the
 * next unread one, so tests assert exact sequences; a "nothing was sent" check publishes a
 * later event the client must receive and asserts it is the next one.
 */
export class Inbox {
  private readonly received: Received[] = [];
  private readCount = 0;
  private wake: (() => void) | undefined;

  constructor(readonly socket: Client) {
    socket.onAny((event: string, payload: unknown) => {
      this.received.push({ event, payload });
      this.wake?.();
    });
  }

  async next(): Promise<Received> {
    while (this.readCount >= this.received.length) await new Promise<void>((resolve) => { this.wake = resolve; });
    return this.received[this.readCount++]!;
  }

  /** The payload of the next event, which must be named `event`. */
  async expect<E extends keyof ServerToClientEvents>(event: E): Promise<Parameters<ServerToClientEvents[E]>[0]> {
    const message = await this.next();
    if (message.event !== event) throw new Error(`expected "${event}" next, got "${message.event}": ${JSON.stringify(message.payload)}`);
    return message.payload;
  }

  emit<E extends keyof ClientToServerEvents>(event: E, ...payload: unknown[]): void {
    (this.socket.emit as (event: string, ...args: unknown[]) => void)(event, ...payload);
  }

  close(): void {
    this.socket.disconnect();
  }
}

function openSocket(url: string, namespace: string, auth?: Record<string, unknown>): Client {
  return connect(`${url}${namespace}`, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, ...(auth ? { auth } : {}) });
}

/** Connects and resolves once the server accepted the connection. */
export async function connectInbox(url: string, namespace = '/', auth?: Record<string, unknown>): Promise<Inbox> {
  const socket = openSocket(url, namespace, auth);
  const inbox = new Inbox(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => { socket.disconnect(); reject(error); });
  });
  return inbox;
}

/** Connects expecting a refusal and returns the connect error. */
export async function refusedConnection(url: string, namespace: string, auth?: Record<string, unknown>): Promise<Error & { data?: unknown }> {
  const socket = openSocket(url, namespace, auth);
  try {
    return await new Promise((resolve, reject) => {
      socket.once('connect', () => reject(new Error('the connection was accepted')));
      socket.once('connect_error', (error) => resolve(error as Error & { data?: unknown }));
    });
  } finally {
    socket.disconnect();
  }
}

/** The `/user` API-key handshake (EXTENSIONS.md section 6), signed at the server's time. */
export async function apiKeyHandshake(server: ApiServer, creds: ApiCredentials): Promise<Record<string, unknown>> {
  const timestamp = (await exchangeInfo(server)).serverTime;
  const signature = createHmac('sha256', creds.secret).update(`${timestamp}GET/user`).digest('hex');
  return { apiKey: creds.apiKey, passphrase: creds.passphrase, timestamp, signature };
}

/** Resolves with the reason once the socket is disconnected (by the server: `io server disconnect`). */
export function disconnection(inbox: Inbox): Promise<string> {
  return new Promise((resolve) => inbox.socket.once('disconnect', (reason) => resolve(reason)));
}

/** Decimal token ids for tests (any digits; the books decide which are known). */
export const tokenId = (n: number): string => (10n ** 40n + BigInt(n)).toString();

/** The Redis of tests that need one (REDIS_TEST_URL: CI gives each suite its own). */
export const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers at `url` (tests of several nodes skip without one). */
export async function redisReachable(url: string): Promise<boolean> {
  const probe = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2_000 } });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    probe.destroy();
    return true;
  } catch {
    return false;
  }
}

/** A subscriber's copy of one token's book: a snapshot, then the changes that follow it. */
export interface FollowedBook {
  seq: number;
  snapshot(snapshot: BookSnapshot): void;
  apply(change: OrderbookPriceChange): void;
}

/** Subscribes a new socket to the tokens' books, each followed in a book `follow` makes, once their snapshots arrived. */
export async function subscribeBooks<B extends FollowedBook>(url: string, tokenIds: string[], follow: () => B): Promise<{ client: Client; books: Map<string, B> }> {
  const client: Client = connect(url, { transports: ['websocket'], forceNew: true });
  const books = new Map(tokenIds.map((id) => [id, follow()]));
  client.on('orderbook', (snapshot) => books.get(snapshot.asset_id)?.snapshot(snapshot));
  client.on('orderbook-price-change', (change) => books.get(change.asset_id)?.apply(change));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', resolve);
    client.once('connect_error', reject);
  });
  client.emit('orderbook-market-connect', tokenIds);
  await until(() => [...books.values()].every((book) => book.seq >= 0), 'the first snapshots');
  return { client, books };
}

/** Waits for a condition the server reaches asynchronously; fails with `what` after 10 s. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The REST book of a token. */
export const restBook = async (server: ApiServer, tokenId: string) => (await get(server.api(`/order-book/book?token_id=${tokenId}`))).body;
