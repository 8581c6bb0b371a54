/**
 * Real-time fan-out: `npm run bench -- fanout`. N socket.io-client subscribers (BENCH_SUBSCRIBERS,
 * default 100,1000,5000) on one token of one market, in this process; the exchange in its own
 * process (src/cli/main.ts serve, PGlite on disk) under a steady, open-loop order flow
 * (BENCH_RATE orders per second, default 20, for BENCH_SECONDS, default 5). Each order is a
 * resting BUY, so each makes exactly one `orderbook-price-change` of the token. Measured: the
 * messages delivered per second over all subscribers, and per message and subscriber the time
 * from the order's acknowledgement (its HTTP response) to the delivery; negative when the change
 * arrives before the acknowledgement (events are published after commit, before the reply).
 *
 * The ceiling, in the same run and with the same clients: a bare Socket.IO server in its own
 * process (bench/fanout-bare-server.ts) broadcasting the very payloads the exchange sent, at the
 * same rate, each triggered by one HTTP request whose response is the "acknowledgement".
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import type { OrderbookPriceChange } from '../src/realtime/messages.ts';
import { createPublishedEvent } from '../test/helpers/catalogue.ts';
import { startProcessServer } from '../test/helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../test/helpers/trader.ts';

const SUBSCRIBERS = (process.env.BENCH_SUBSCRIBERS ?? '100,1000,5000').split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const MESSAGES = RATE * DURATION_S;
/** How long to wait for the last deliveries once the flow stopped; what has not arrived by then counts as lost. */
const DRAIN_MS = 30_000;
const CONNECT_BATCH = 200;

/** Per message: when its trigger was sent and acknowledged, and every arrival time over all subscribers. */
interface Measure {
  sends: number[];
  acks: number[];
  arrivals: number[][];
  firstSend: number;
  delivered: number;
}

interface Row {
  target: string;
  subscribers: number;
  delivered: string;
  perSecond: number;
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

/** Records every change's arrival by its index in the flow (seq above `baseSeq`). */
function listen(sockets: Socket[], measure: Measure, indexOf: (change: OrderbookPriceChange) => number): void {
  for (const socket of sockets) {
    socket.on('orderbook-price-change', (change: OrderbookPriceChange) => {
      const index = indexOf(change);
      if (index < 0 || index >= MESSAGES) return;
      measure.arrivals[index]!.push(performance.now());
      measure.delivered += 1;
    });
  }
}

/** Sends `MESSAGES` triggers at `RATE` per second without waiting for answers (open loop), then drains. */
async function runFlow(trigger: (index: number) => Promise<void>, measure: Measure, expected: number): Promise<number> {
  const interval = 1000 / RATE;
  measure.firstSend = performance.now();
  const pending: Promise<void>[] = [];
  for (let index = 0; index < MESSAGES; index++) {
    const due = measure.firstSend + index * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    measure.sends[index] = performance.now();
    pending.push(trigger(index).then(() => void (measure.acks[index] = performance.now())));
  }
  await Promise.all(pending);
  const drainUntil = performance.now() + DRAIN_MS;
  while (measure.delivered < expected && performance.now() < drainUntil) await sleep(20);
  // A loop: spreading half a million arrivals into Math.max overflows the stack.
  let last = 0;
  for (const times of measure.arrivals) for (const time of times) if (time > last) last = time;
  return last;
}

function row(target: string, subscribers: number, measure: Measure, lastArrival: number): Row {
  const quantiles = (from: number[]) => {
    const latencies = measure.arrivals.flatMap((times, index) => times.map((time) => time - from[index]!)).sort((a, b) => a - b);
    const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN).toFixed(1));
    return [at(0.5), at(0.99)] as const;
  };
  const [ackP50, ackP99] = quantiles(measure.acks);
  const [sendP50, sendP99] = quantiles(measure.sends);
  const expected = subscribers * MESSAGES;
  return {
    target,
    subscribers,
    delivered: `${measure.delivered}/${expected}`,
    perSecond: Math.round(measure.delivered / ((lastArrival - measure.firstSend) / 1000)),
    'ack→delivery p50': ackP50,
    'ack→delivery p99': ackP99,
    'send→delivery p50': sendP50,
    'send→delivery p99': sendP99,
  };
}

const newMeasure = (): Measure => ({ sends: [], acks: [], arrivals: Array.from({ length: MESSAGES }, () => []), firstSend: 0, delivered: 0 });

/** The exchange: N subscribers of token 1, resting BUYs through POST /orders. Returns the payloads it delivered, in order. */
async function benchExchange(url: string, api: Parameters<typeof newTrader>[0], trader: Trader, tokenId: string, subscribers: number): Promise<{ row: Row; payloads: OrderbookPriceChange[] }> {
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
  sockets[0]!.on('orderbook-price-change', (change: OrderbookPriceChange) => payloads.push(change));
  // Bodies are built (and signed) before the flow, so the flow measures the exchange, not viem.
  const bodies = await Promise.all(Array.from({ length: MESSAGES }, (_, index) =>
    orderBody(api, trader, { tokenId, side: 'BUY', price: (0.01 * (1 + (index % 45))).toFixed(2), size: '1', signed: false })));
  const measure = newMeasure();
  listen(sockets, measure, (change) => change.seq - baseSeq - 1);
  const lastArrival = await runFlow(async (index) => {
    const response = await trader.call('POST', '/orders', bodies[index]);
    if (response.status !== 200) throw new Error(`order ${index}: ${response.status} ${JSON.stringify(response.body)}`);
  }, measure, subscribers * MESSAGES);
  sockets.forEach((socket) => socket.disconnect());
  return { row: row('exchange', subscribers, measure, lastArrival), payloads };
}

/** The ceiling: the same payloads, broadcast by a bare Socket.IO server. */
async function benchBare(url: string, subscribers: number, payloads: OrderbookPriceChange[]): Promise<Row> {
  const sockets = await connectClients(url, subscribers, async (socket) => void (await socket.emitWithAck('join')));
  const measure = newMeasure();
  const firstSeq = payloads[0]!.seq;
  listen(sockets, measure, (change) => change.seq - firstSeq);
  const lastArrival = await runFlow(async (index) => {
    const response = await fetch(`${url}/emit`, { method: 'POST', body: JSON.stringify(payloads[index]) });
    if (response.status !== 204) throw new Error(`emit ${index}: ${response.status}`);
  }, measure, subscribers * MESSAGES);
  sockets.forEach((socket) => socket.disconnect());
  return row('bare Socket.IO', subscribers, measure, lastArrival);
}

async function startBareServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fanout-bare-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const dir = mkdtempSync(join(tmpdir(), 'pmx-bench-fanout-'));
const server = await startProcessServer({ DATA_DIR: dir });
const bare = await startBareServer();
const rows: Row[] = [];
try {
  const market = (await createPublishedEvent(server)).markets[0]!;
  const trader = await newTrader(server, { fund: '1000000' });
  for (const subscribers of SUBSCRIBERS) {
    const exchange = await benchExchange(server.url, server, trader, market.tokenId1, subscribers);
    rows.push(exchange.row);
    if (exchange.payloads.length === MESSAGES) rows.push(await benchBare(bare.url, subscribers, exchange.payloads));
    // Cancel the book's growth between sizes, so every size starts from a similar book.
    await trader.call('POST', '/orders/cancel-all');
  }
} finally {
  bare.stop();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${RATE} orders/s for ${DURATION_S} s (${MESSAGES} book changes per run); latencies in ms, negative: delivered before the acknowledgement`);
console.table(rows);
