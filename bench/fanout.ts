/**
 * Real-time fan-out: `npm run bench -- fanout`. N socket.io-client subscribers (BENCH_SUBSCRIBERS,
 * default 100,1000,5000) on one token of one market, in this process; the exchange in its own
 * process (src/cli/main.ts serve, PGlite on disk; more targets in `targets` below) under a steady, open-loop order flow
 * (BENCH_RATE orders per second, default 20, for BENCH_SECONDS, default 5). Each order is a
 * resting BUY at a price of its own (tick 0.001), so the level it adds names it in the
 * `orderbook-price-change` that carries it (orders of one group commit share one change).
 * Measured: the messages delivered per second over all subscribers; per order the time from its
 * send to its acknowledgement (its HTTP response: what watchers must not slow); and per order and
 * subscriber the time from the acknowledgement to the delivery of its change (negative when the
 * change arrives first) and from the send to that delivery.
 * Each target first runs BENCH_WARMUP_S (default 1) seconds of the same flow, unmeasured.
 *
 * The ceiling, in the same run and with the same clients: a bare Socket.IO server in its own
 * process (bench/fanout-bare-server.ts) broadcasting the very payloads the exchange sent, each at
 * the moment the exchange's first subscriber received it, each triggered by one HTTP request
 * whose response is the "acknowledgement".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import type { OrderbookPriceChange } from '../src/contract/realtime.ts';
import { createPublishedEvent } from '../test/helpers/catalogue.ts';
import { createScratchDatabase } from '../test/helpers/database.ts';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../test/helpers/trader.ts';
import { startChildServer } from './child-server.ts';
import { EMBEDDED_STORE_ENV } from './stores.ts';

const SUBSCRIBERS = (process.env.BENCH_SUBSCRIBERS ?? '100,1000,5000').split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** Orders per run; each at its own price, 0.001 apart, so at most 999. */
const ORDERS = Math.min(999, RATE * DURATION_S);
/**
 * Triggers sent, unmeasured, before each measured flow, at the same rate (BENCH_WARMUP_S seconds,
 * default 1): a server that has just started compiles its hot paths during the first few hundred
 * milliseconds, and those acknowledgements would otherwise be the p99.
 */
const WARMUP = Math.min(ORDERS, Math.round(RATE * Number(process.env.BENCH_WARMUP_S ?? 1)));
/** How long to wait for the last deliveries once the flow stopped; what has not arrived by then counts as lost. */
const DRAIN_MS = 30_000;
const CONNECT_BATCH = 200;

/** Per trigger (order or bare emit): when it was sent and acknowledged, and every arrival of its change over all subscribers. */
interface Measure {
  sends: number[];
  acks: number[];
  arrivals: number[][];
  firstSend: number;
  /** Messages received, over all subscribers. */
  delivered: number;
}

interface Row {
  target: string;
  subscribers: number;
  messages: number;
  'changes delivered': string;
  perSecond: number;
  'ack p50': number;
  'ack p99': number;
  'ack→delivery p50': number;
  'ack→delivery p99': number;
  'send→delivery p50': number;
  'send→delivery p99': number;
}

/** Connects `count` websocket clients in batches, each made a subscriber by `subscribe`. */
async function connectClients(url: string, count: number, subscribe: (socket: Socket) => Promise<void>): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, async () => {
      const socket = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      await subscribe(socket);
    });
    await Promise.all(batch);
  }
  return sockets;
}

/** Records every change's arrival under the triggers it carries. */
function listen(sockets: Socket[], measure: Measure, triggersOf: (change: OrderbookPriceChange) => number[]): void {
  for (const socket of sockets) {
    socket.on('orderbook-price-change', (change: OrderbookPriceChange) => {
      const now = performance.now();
      measure.delivered += 1;
      for (const index of triggersOf(change)) measure.arrivals[index]?.push(now);
    });
  }
}

/**
 * Sends trigger i at `offsets[i]` ms after the start without waiting for answers (open loop), then
 * waits until every subscriber has the change of every trigger (or DRAIN_MS passed).
 */
async function runFlow(trigger: (index: number) => Promise<void>, offsets: number[], measure: Measure, subscribers: number): Promise<number> {
  measure.firstSend = performance.now();
  const pending: Promise<void>[] = [];
  for (const [index, offset] of offsets.entries()) {
    const due = measure.firstSend + offset;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    measure.sends[index] = performance.now();
    pending.push(trigger(index).then(() => {
      measure.acks[index] = performance.now();
    }));
  }
  await Promise.all(pending);
  const drainUntil = performance.now() + DRAIN_MS;
  while (measure.arrivals.some((times) => times.length < subscribers) && performance.now() < drainUntil) await sleep(20);
  // A loop: spreading half a million arrivals into Math.max overflows the stack.
  let last = 0;
  for (const times of measure.arrivals) for (const time of times) if (time > last) last = time;
  return last;
}

/** p50 and p99 of the latencies, in ms with one decimal. */
function quantiles(latencies: number[]): readonly [number, number] {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(1));
  return [at(0.5), at(0.99)] as const;
}

function row(target: string, subscribers: number, measure: Measure, lastArrival: number): Row {
  const deliveries = (from: number[]) => quantiles(measure.arrivals.flatMap((times, index) => times.map((time) => time - from[index]!)));
  const [sendAckP50, sendAckP99] = quantiles(measure.acks.map((ack, index) => ack - measure.sends[index]!));
  const [ackP50, ackP99] = deliveries(measure.acks);
  const [sendP50, sendP99] = deliveries(measure.sends);
  const complete = measure.arrivals.reduce((sum, times) => sum + times.length, 0);
  return {
    target,
    subscribers,
    messages: measure.delivered,
    'changes delivered': `${complete}/${subscribers * measure.arrivals.length}`,
    perSecond: Math.round(measure.delivered / ((lastArrival - measure.firstSend) / 1000)),
    'ack p50': sendAckP50,
    'ack p99': sendAckP99,
    'ack→delivery p50': ackP50,
    'ack→delivery p99': ackP99,
    'send→delivery p50': sendP50,
    'send→delivery p99': sendP99,
  };
}

const newMeasure = (triggers: number): Measure => ({ sends: [], acks: [], arrivals: Array.from({ length: triggers }, () => []), firstSend: 0, delivered: 0 });

/** The exchange: N subscribers of token 1, resting BUYs through POST /orders. Returns the payloads it delivered and when the first subscriber got them. */
async function benchExchange(url: string, api: Parameters<typeof newTrader>[0], trader: Trader, tokenId: string, subscribers: number, name: string): Promise<{ row: Row; payloads: OrderbookPriceChange[]; offsets: number[] }> {
  let baseSeq = -1;
  const payloads: OrderbookPriceChange[] = [];
  const sockets = await connectClients(url, subscribers, (socket) =>
    new Promise((resolve) => {
      socket.once('orderbook', (snapshot: { seq: number }) => {
        baseSeq = Math.max(baseSeq, snapshot.seq);
        resolve();
      });
      socket.emit('orderbook-market-connect', [tokenId]);
    }),
  );
  // Bodies are built before the flow, so the flow measures the exchange, not the client.
  const build = (count: number) => Promise.all(Array.from({ length: count }, (_, index) =>
    orderBody(api, trader, { tokenId, side: 'BUY', price: ((index + 1) / 1000).toFixed(3), size: '1', signed: false })));
  const [warmup, bodies] = [await build(WARMUP), await build(ORDERS)];
  const place = async (body: Record<string, unknown>, index: number) => {
    const response = await trader.call('POST', '/orders', body);
    if (response.status !== 200) throw new Error(`order ${index}: ${response.status} ${JSON.stringify(response.body)}`);
  };
  await runFlow((index) => place(warmup[index]!, index), Array.from({ length: WARMUP }, (_, index) => (index * 1000) / RATE), newMeasure(WARMUP), 0);
  await trader.call('POST', '/orders/cancel-all');
  // The cancels' changes reach every subscriber before the measured flow starts.
  await sleep(1000);

  const measure = newMeasure(ORDERS);
  const offsets: number[] = [];
  sockets[0]!.on('orderbook-price-change', (change: OrderbookPriceChange) => {
    payloads.push(change);
    offsets.push(performance.now() - measure.firstSend);
  });
  // Order i rests alone at (i + 1) thousandths: a new bid level at that price is its change.
  listen(sockets, measure, (change) => change.changes.filter((level) => level.side === 'buy' && level.size !== '0').map((level) => Math.round(Number(level.price) * 1000) - 1));
  const lastArrival = await runFlow((index) => place(bodies[index]!, index), Array.from({ length: ORDERS }, (_, index) => (index * 1000) / RATE), measure, subscribers);
  for (const socket of sockets) socket.disconnect();
  return { row: row(name, subscribers, measure, lastArrival), payloads, offsets };
}

/** The ceiling: the same payloads at the same moments, broadcast by a bare Socket.IO server. */
async function benchBare(url: string, subscribers: number, payloads: OrderbookPriceChange[], offsets: number[]): Promise<Row> {
  const sockets = await connectClients(url, subscribers, async (socket) => void (await socket.emitWithAck('join')));
  const emit = async (payload: OrderbookPriceChange, index: number) => {
    const response = await fetch(`${url}/emit`, { method: 'POST', body: JSON.stringify(payload) });
    if (response.status !== 204) throw new Error(`emit ${index}: ${response.status}`);
  };
  // The warm-up: the payloads of the first second or so, unmeasured.
  const warmup = offsets.filter((offset) => offset < (WARMUP * 1000) / RATE).length;
  await runFlow((index) => emit(payloads[index]!, index), offsets.slice(0, warmup), newMeasure(warmup), 0);
  await sleep(1000);
  const measure = newMeasure(payloads.length);
  const indexOfSeq = new Map(payloads.map((payload, index) => [payload.seq, index]));
  listen(sockets, measure, (change) => [indexOfSeq.get(change.seq)!]);
  const lastArrival = await runFlow((index) => emit(payloads[index]!, index), offsets, measure, subscribers);
  for (const socket of sockets) socket.disconnect();
  return row('bare Socket.IO', subscribers, measure, lastArrival);
}

/**
 * Where orders go and where subscribers connect. Always one node on PGlite on disk; with
 * BENCH_DATABASE_URL (or DATABASE_URL) and BENCH_REDIS_URL (or REDIS_URL) also one node on
 * PostgreSQL, and two nodes on the same PostgreSQL and Redis with the subscribers on the second:
 * the engine's node then writes no subscriber socket (the feeds of the second node follow it
 * through the book relay), which is how several nodes keep watchers off the order path.
 */
interface Target {
  name: string;
  orders: ProcessServer;
  feeds: ProcessServer;
  /** Whether the bare Socket.IO server replays this target's payloads: the run's one ceiling. */
  withBareCeiling: boolean;
  stop(): Promise<void>;
}

async function* targets(): AsyncGenerator<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-bench-fanout-'));
  const embedded = await startProcessServer({ ...EMBEDDED_STORE_ENV, DATA_DIR: dir, SOCKETS_PER_ADDRESS: '0' });
  yield { name: 'exchange, PGlite', orders: embedded, feeds: embedded, withBareCeiling: true, stop: async () => {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  } };
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) return;
  for (const feedNode of [false, true]) {
    const scratch = await createScratchDatabase(databaseUrl);
    const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, SOCKETS_PER_ADDRESS: '0' };
    const leader = await startProcessServer(env);
    const follower = feedNode ? await startProcessServer(env) : leader;
    yield { name: feedNode ? 'exchange, PostgreSQL, feeds on a 2nd node' : 'exchange, PostgreSQL, one node', orders: leader, feeds: follower, withBareCeiling: false, stop: async () => {
      if (follower !== leader) await follower.stop();
      await leader.stop();
      await scratch.drop();
    } };
  }
}

const bare = await startChildServer('bench/fanout-bare-server.ts');
const rows: Row[] = [];
try {
  for await (const target of targets()) {
    try {
      const market = (await createPublishedEvent(target.orders, { tickSize: '0.001' })).markets[0]!;
      const trader = await newTrader(target.orders, { fund: '1000000' });
      for (const subscribers of SUBSCRIBERS) {
        const exchange = await benchExchange(target.feeds.url, target.orders, trader, market.tokenId1, subscribers, target.name);
        rows.push(exchange.row);
        if (target.withBareCeiling) rows.push(await benchBare(bare.url, subscribers, exchange.payloads, exchange.offsets));
        // Cancel the book's growth between sizes, so every size starts from a similar book.
        await trader.call('POST', '/orders/cancel-all');
      }
    } finally {
      await target.stop();
    }
  }
} finally {
  bare.stop();
}
console.log(`${RATE} orders/s, ${ORDERS} orders per run after ${WARMUP} unmeasured; perSecond: messages delivered per second; latencies in ms: ack is send→acknowledgement (the HTTP response), ack→delivery negative when delivered before the acknowledgement`);
console.table(rows);
