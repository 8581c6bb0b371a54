/**
 * Reads beside order flow: `npm run bench -- reads-under-load` (issue 37: "reads do not wait for
 * writes": `GET /orders` and `GET /account/balance` p99 under full order load within 20% of their
 * p99 without it). One server process per store (bench/stores.ts). A reader with 50 resting orders
 * sends the two reads one after the other on one connection, a fresh HMAC each, for BENCH_SECONDS:
 * first alone, then while autocannon sends unsigned single orders of two other traders at full
 * speed (BENCH_CONNECTIONS connections), then alone again, so the loaded figures sit between two
 * quiet ones of the same server. Client, server and database share the machine's cores: under
 * full load a read also waits for a core, which the quiet runs do not.
 *
 * On PostgreSQL it runs a second time with the reads sent to a follower node (a second server on
 * the same database and Redis, which applies the engine's journal as it is appended) while the
 * orders go to the leader: how reads are kept off the engine's event loop (docs/engine.md
 * "What a reader sees").
 */
import autocannon from 'autocannon';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { hmacHeaders, postOrder, setUpMarket, setUpTrader, UNLIMITED_RATES, type BenchTrader } from './exchange-client.ts';
import { startFollower } from './follower-node.ts';
import { createOrderJson, orderStruct, unsignedOrderStream } from './order-stream.ts';
import { onEachStore } from './stores.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const READS = ['/api/v1/orders', '/api/v1/account/balance'] as const;

type Latencies = Record<(typeof READS)[number], number[]>;

/** The reader's HMAC timestamps: never one twice, as a bodiless read's signature is only its timestamp and path. */
let lastReadStampMs = 0;

/** The reads, in turn, until `until` (performance.now()); each one's latency in ms. */
async function readLoop(server: ProcessServer, reader: BenchTrader, until: number): Promise<Latencies> {
  const latencies: Latencies = { '/api/v1/orders': [], '/api/v1/account/balance': [] };
  for (let n = 0; performance.now() < until; n++) {
    const path = READS[n % READS.length]!;
    lastReadStampMs = Math.max(Date.now(), lastReadStampMs + 1);
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: hmacHeaders(reader, 'GET', path, '', lastReadStampMs) });
    const body = await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${new TextDecoder().decode(body)}`);
    latencies[path].push(performance.now() - started);
  }
  return latencies;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The reads on the order-taking server itself, or (`readsOnFollower`) on a follower of it. */
async function benchStore(label: string, storeEnv: Record<string, string>, readsOnFollower = false): Promise<Record<string, string | number>[]> {
  const env = { ...storeEnv, LOG_LEVEL: 'warn', ...UNLIMITED_RATES, ...(readsOnFollower ? { REDIS_URL: redisUrl } : {}) };
  const server = await startProcessServer(env);
  let readServer = server;
  try {
    if (readsOnFollower) readServer = await startFollower(env);
    const market = await setUpMarket(server);
    const [reader, ...placers] = [await setUpTrader(server), await setUpTrader(server), await setUpTrader(server)] as [BenchTrader, BenchTrader, BenchTrader];
    // The reader's own 50 resting orders, so GET /orders has rows to read: BUYs below 40¢, which the
    // stream's crossing BUYs at 60¢ never reach, so the load never touches the reader's account and
    // its reads never wait for the tables to take a fill of its own.
    const restingIndices = Array.from({ length: 39 }, (_, n) => n).filter((n) => n % 10 !== 9);
    for (let k = 0; k < 50; k++) {
      const body = JSON.stringify(createOrderJson(orderStruct(restingIndices[k % restingIndices.length]!, reader, market)));
      await postOrder(server, reader, body);
    }
    const quiet = () => readLoop(readServer, reader, performance.now() + DURATION_S * 1000);
    const before = await quiet();
    const nextOrder = unsignedOrderStream(placers, market);
    const load = autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION_S, requests: [{ setupRequest: (request: object) => ({ ...request, ...nextOrder() }) }] });
    const [loaded, orders] = await Promise.all([readLoop(readServer, reader, performance.now() + DURATION_S * 1000), load]);
    const after = await quiet();
    return READS.map((path) => {
      const quietP99 = Math.max(percentile(before[path], 99), percentile(after[path], 99));
      const loadedP99 = percentile(loaded[path], 99);
      return {
        store: label,
        'reads on': readsOnFollower ? 'a follower' : 'the leader',
        read: `GET ${path.replace('/api/v1', '')}`,
        'quiet p50 / p99 ms (before, after)': `${percentile(before[path], 50).toFixed(1)} / ${percentile(before[path], 99).toFixed(1)}, ${percentile(after[path], 50).toFixed(1)} / ${percentile(after[path], 99).toFixed(1)}`,
        'under load p50 / p99 ms': `${percentile(loaded[path], 50).toFixed(1)} / ${loadedP99.toFixed(1)}`,
        'loaded p99 ÷ quiet p99': `${(loadedP99 / quietP99).toFixed(2)}`,
        'reads under load': loaded[path].length,
        'orders/s meanwhile': Math.round(orders['2xx'] / DURATION_S),
      };
    });
  } finally {
    if (readServer !== server) await readServer.stop();
    await server.stop();
  }
}

const rows = (await onEachStore(async (label, env) => [
  ...(await benchStore(label, env)),
  ...(label === 'PostgreSQL' ? await benchStore(label, env, true) : []),
])).flat();
console.log(`${CONNECTIONS} order connections, ${DURATION_S} s per phase; the quiet p99 compared is the larger of the two quiet runs`);
console.table(rows);
