/**
 * Order entry over HTTP, durable, with a real client on loopback: `npm run bench -- http-orders`.
 * One server process (src/cli/main.ts serve) per store — PGlite on disk, then PostgreSQL when
 * BENCH_DATABASE_URL (or DATABASE_URL) is set — and, in the same run and against the same process:
 * the trivial route (the HTTP ceiling), unsigned single orders, batches of 50, signed orders,
 * single cancels of resting orders, and a maker's mix (70% places, 30% cancels of its own resting
 * orders); then, once per run, the ceiling of an order's HTTP: a bare Fastify server answering
 * the same order requests (HMAC, JSON, an answer of the exchange's bytes) with no exchange behind
 * it (bench/order-shaped-server.ts); plus the machine's raw signature-verification rate on every
 * core (the crypto ceiling).
 * Each figure is printed beside GET /healthz of the same server in the same run, with the ratio
 * (issue 19's targets are ratios: unsigned singles at 25% of /healthz, signed at 60% of unsigned).
 * Orders are BUYs of both tokens from two traders, about one in ten crossing, so the engine
 * matches (MINT) as well as rests. Every request carries a fresh HMAC, as a client must.
 * Beside each rate, the server process's CPU time per order (per request for /healthz): steadier
 * than rates on a machine whose neighbours take a varying share of its cores; PostgreSQL's and the
 * client's CPU time per order, the machine's busy share and its steal time (machine-cpu.ts), which
 * together say what bounds a rate on cores all three share; and the longest turn of the server's
 * event loop, which bounds how long anything else waited (timers, reads, accepts).
 * BENCH_SCENARIOS picks scenarios, BENCH_REFERENCE adds another checkout's build as a reference.
 * `guarded` (not run by default: BENCH_SCENARIOS=unsigned,guarded) repeats unsigned singles with
 * 100 armed heartbeats and MMP on both placing keys (bench/maker-safety-load.ts), then once more
 * without, so the guarded figure sits between two unguarded ones of the same server.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import secp256k1 from 'secp256k1';
import { hexToBytes, bytesToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseConfig } from '../src/config.ts';
import { createMarketOrderHasher, type OrderStruct } from '../src/core/orders/eip712-order.ts';
import { createSignatureVerifier } from '../src/engine/signatures/signature-verifier.ts';
import { metricValues } from '../test/helpers/metrics.ts';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { hmacHeaders, json, postOrder, setUpMarket, setUpTrader, UNLIMITED_RATES, type BenchTrader, type Hex } from './exchange-client.ts';
import { createOrderJson, orderStruct, placeRequest, type BenchRequest } from './order-stream.ts';
import { benchBuilds } from './builds.ts';
import { armMakerSafety } from './maker-safety-load.ts';
import { startChildServer } from './child-server.ts';
import { cpuSpent, sampleCpu, type CpuSpent } from './machine-cpu.ts';
import { onEachStore } from './stores.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
/** BENCH_SCENARIOS=unsigned,mix runs only those (with /healthz, always): to profile one of them. */
const SCENARIOS = process.env.BENCH_SCENARIOS?.split(',') ?? ['unsigned', 'batch', 'signed', 'cancel', 'mix'];
const wanted = (scenario: string) => SCENARIOS.includes(scenario);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const hashOrder = createMarketOrderHasher(parseConfig({}));

function sign(order: OrderStruct, trader: BenchTrader): Hex {
  const digest = hexToBytes(hashOrder(order, false));
  const { signature, recid } = secp256k1.ecdsaSign(digest, hexToBytes(trader.privateKey));
  return `${bytesToHex(signature)}${(27 + recid).toString(16)}` as Hex;
}

interface Row { scenario: string; requestsPerSec: number; ordersPerSec: number; p50: number; p99: number; errors: number; commandsPerBatch: number | undefined; cpuMicrosPerOrder: number; machine: CpuSpent | undefined; orders: number; longestTurnMs: number; settlementBatchMs: number | undefined }
type NextRequest = () => BenchRequest;

async function run(scenario: string, server: { url: string }, ordersPerRequest: number, next: NextRequest | null, onResponse?: (status: number, body: string) => void): Promise<Row> {
  const before = await serverCounters(server);
  const machineBefore = sampleCpu();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [next ? { setupRequest: (request: any) => ({ ...request, ...next() }), ...(onResponse ? { onResponse } : {}) } : { method: 'GET', path: '/healthz' }],
  });
  const machine = cpuSpent(machineBefore, sampleCpu());
  const after = await serverCounters(server);
  const batches = after.batches - before.batches;
  const ok = result['2xx'];
  // Per order; per request for /healthz, which places none.
  const orders = (result.requests.total || 1) * Math.max(1, ordersPerRequest);
  return {
    scenario, requestsPerSec: ok / DURATION_S, ordersPerSec: (ok * ordersPerRequest) / DURATION_S, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors,
    commandsPerBatch: batches > 0 ? (after.commands - before.commands) / batches : undefined,
    orders,
    cpuMicrosPerOrder: ((after.cpuSeconds - before.cpuSeconds) * 1e6) / orders,
    machine,
    longestTurnMs: after.longestTurnSeconds * 1000,
    settlementBatchMs: after.settlementBatches > before.settlementBatches ? ((after.settlementSeconds - before.settlementSeconds) * 1000) / (after.settlementBatches - before.settlementBatches) : undefined,
  };
}

/**
 * What the server's own metrics say so far:
 * - the engine's batches and the commands they held (whether group commit groups);
 * - the process's CPU time (user and system, all its threads: PGlite's included, PostgreSQL's
 *   not). Per request it is steadier than a rate on this machine, whose throughput moves with its
 *   neighbours: a change that saves work shows here even when the rates of two runs are within
 *   their noise;
 * - the longest event-loop turn since the last scrape (prom-client resets it on each): how long
 *   timers, socket reads and new connections waited at worst;
 * - the batches that ran a settlement round and their time: how long a round held the engine's
 *   queue, the orders behind it waiting.
 */
async function serverCounters(server: { url: string }): Promise<{ batches: number; commands: number; cpuSeconds: number; longestTurnSeconds: number; settlementBatches: number; settlementSeconds: number }> {
  const values = await metricValues(server, [
    'pmx_engine_batch_commands_count', 'pmx_engine_batch_commands_sum', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_max_seconds',
    'pmx_engine_settlement_batch_duration_seconds_count', 'pmx_engine_settlement_batch_duration_seconds_sum',
  ]);
  return {
    settlementBatches: values.get('pmx_engine_settlement_batch_duration_seconds_count') ?? 0,
    settlementSeconds: values.get('pmx_engine_settlement_batch_duration_seconds_sum') ?? 0,
    batches: values.get('pmx_engine_batch_commands_count') ?? 0,
    commands: values.get('pmx_engine_batch_commands_sum') ?? 0,
    cpuSeconds: values.get('process_cpu_seconds_total') ?? 0,
    longestTurnSeconds: values.get('nodejs_eventloop_lag_max_seconds') ?? 0,
  };
}

async function cryptoCeiling(): Promise<number> {
  const verifier = createSignatureVerifier({ workers: availableParallelism() });
  const account = privateKeyToAccount(generatePrivateKey());
  const samples = await Promise.all(Array.from({ length: 256 }, async (_, i) => {
    const digest = `0x${randomBytes(32).toString('hex')}` as Hex;
    return { digest, signature: await account.sign({ hash: digest }), i };
  }));
  const started = performance.now();
  let done = 0;
  while (performance.now() - started < 3000) {
    await Promise.all(samples.map((s) => verifier.verify(s.digest, s.signature, account.address)));
    done += samples.length;
  }
  await verifier.close();
  return done / ((performance.now() - started) / 1000);
}


async function benchStore(label: string, env: Record<string, string>, cli?: string): Promise<Row[]> {
  const server = await startProcessServer({ ...env, LOG_LEVEL: 'warn', ...UNLIMITED_RATES }, undefined, cli);
  try {
    const market = await setUpMarket(server);
    const traders = [await setUpTrader(server), await setUpTrader(server)];
    orderSample ??= { answer: await placeOne(server, traders[0]!, market), trader: traders[0]!, market };
    let i = 0;
    const single = (presigned?: string[]) => () => {
      const n = i++;
      const trader = traders[n % 2]!;
      const body = presigned ? presigned[n % presigned.length]! : JSON.stringify(createOrderJson(orderStruct(n, trader, market)));
      return placeRequest(trader, body);
    };
    const batch = () => {
      const trader = traders[i % 2]!;
      const orders = Array.from({ length: 50 }, () => createOrderJson(orderStruct(i++, trader, market)));
      const body = JSON.stringify({ orders });
      return { method: 'POST' as const, path: '/api/v1/orders/batch', body, headers: hmacHeaders(trader, 'POST', '/api/v1/orders/batch', body) };
    };
    const signedBodies = Array.from({ length: wanted('signed') ? 60_000 : 0 }, (_, n) => {
      const trader = traders[n % 2]!;
      const order = orderStruct(n, trader, market);
      return JSON.stringify(createOrderJson(order, sign(order, trader)));
    });
    const cancel = (ids: string[]) => () => {
      // Run out of resting orders, a cancel names none that exists: it is answered 404 and counted as an error.
      const id = ids.pop() ?? '00000000-0000-4000-8000-000000000000';
      const trader = traders[owners.get(id) ?? 0]!;
      const path = `/api/v1/orders/${id}/cancel`;
      return { method: 'POST' as const, path, body: '', headers: hmacHeaders(trader, 'POST', path, '') };
    };
    // Who placed which resting order, so that its owner cancels it.
    const owners = new Map<string, number>();
    const resting: string[] = [];
    const remember = (status: number, body: string) => {
      if (status !== 200) return;
      const order = JSON.parse(body) as { id: string; status: string; maker: string };
      if (order.status !== 'PENDING') return;
      owners.set(order.id, traders.findIndex((t) => t.proxyWallet.toLowerCase() === order.maker.toLowerCase()));
      resting.push(order.id);
    };
    let m = 0;
    const mixed: NextRequest = () => {
      const n = m++;
      if (n % 10 < 3 && resting.length > 0) return cancel(resting)();
      return single()();
    };

    const rows = [await run(`${label}: GET /healthz (HTTP ceiling)`, server, 0, null)];
    if (wanted('unsigned')) rows.push(await run(`${label}: POST /orders unsigned`, server, 1, single()));
    if (wanted('guarded')) {
      const guard = await armMakerSafety(server, traders, market);
      rows.push(await run(`${label}: POST /orders unsigned, 100 heartbeats + MMP`, server, 1, single()));
      await guard.stop();
      // Unguarded again, after: the first unsigned run also warms the server up, so the guarded one is read between the two.
      rows.push(await run(`${label}: POST /orders unsigned (again, unguarded)`, server, 1, single()));
    }
    if (wanted('batch')) rows.push(await run(`${label}: POST /orders/batch ×50 unsigned`, server, 50, batch));
    if (wanted('signed')) rows.push(await run(`${label}: POST /orders signed`, server, 1, single(signedBodies)));
    if (wanted('cancel')) {
      // Resting orders to cancel, placed through batches (non-crossing prices: i % 10 !== 9): more
      // than the run can cancel, so that its rate is not that of the 404s once they ran out.
      const toCancel = await placeResting(server, traders, market, owners, 2_500);
      rows.push(await run(`${label}: POST /orders/{id}/cancel`, server, 1, cancel(toCancel)));
    }
    if (wanted('mix')) rows.push(await run(`${label}: maker mix (70% place, 30% cancel)`, server, 1, mixed, remember));
    return rows;
  } finally {
    await server.stop();
  }
}

/** A trader of the exchange, one of its markets and the exchange's answer to one order: what the order-shaped ceiling replays. */
interface OrderSample { answer: string; trader: BenchTrader; market: { tokenId1: string; tokenId2: string } }

/** One resting order's answer, the exchange's own bytes, for the order-shaped ceiling. */
async function placeOne(server: ProcessServer, trader: BenchTrader, market: { tokenId1: string; tokenId2: string }): Promise<string> {
  const body = JSON.stringify(createOrderJson(orderStruct(0, trader, market)));
  return JSON.stringify(await postOrder(server, trader, body));
}

/**
 * The ceiling of an order's HTTP: what the machine answers when the exchange's work on an order
 * costs nothing (bench/order-shaped-server.ts: HMAC, JSON and an answer of an order's bytes, over
 * the same client, requests and connections), beside that server's own /healthz.
 */
async function benchOrderShapedCeiling({ answer, trader, market }: OrderSample): Promise<Row[]> {
  const ceiling = await startChildServer('bench/order-shaped-server.ts', { API_KEY: trader.apiKey, SECRET: trader.secret, PASSPHRASE: trader.passphrase, ORDER_ANSWER: answer });
  try {
    let i = 0;
    const order = () => {
      const body = JSON.stringify(createOrderJson(orderStruct(i++, trader, market)));
      return placeRequest(trader, body);
    };
    const label = 'bare Fastify, no exchange';
    return [await run(`${label}: GET /healthz (HTTP ceiling)`, ceiling, 0, null), await run(`${label}: POST /orders-shaped (HMAC, JSON, an order's answer)`, ceiling, 1, order)];
  } finally {
    ceiling.stop();
  }
}

/** `batches` batches of 50 BUYs priced not to cross (they rest), half from each trader; their ids, owners noted. */
async function placeResting(server: ProcessServer, traders: BenchTrader[], market: { tokenId1: string; tokenId2: string }, owners: Map<string, number>, batches: number): Promise<string[]> {
  const ids: string[] = [];
  for (let b = 0; b < batches; b++) {
    const owner = b % 2;
    const trader = traders[owner]!;
    const orders = Array.from({ length: 50 }, (_, k) => createOrderJson(orderStruct(b * 50 + (k % 9), trader, market)));
    const body = JSON.stringify({ orders });
    const answer = await json(server.api('/orders/batch'), { method: 'POST', headers: hmacHeaders(trader, 'POST', '/api/v1/orders/batch', body), body }) as { results: { orderId?: string }[] };
    for (const { orderId } of answer.results) {
      if (!orderId) continue;
      ids.push(orderId);
      owners.set(orderId, owner);
    }
  }
  return ids;
}

let orderSample: OrderSample | undefined;
const rows: Row[] = [];
for (const build of benchBuilds()) rows.push(...(await onEachStore((label, env) => benchStore(`${build.name}${label}`, env, build.cli))).flat());
if (orderSample && wanted('unsigned')) rows.push(...(await benchOrderShapedCeiling(orderSample)));
const verifyRate = await cryptoCeiling();

console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per scenario, ${availableParallelism()} CPUs (client and server share them)`);
// Each figure beside /healthz of the same server in the same run.
const healthz = (row: Row) => rows.find((r) => r.scenario.startsWith(row.scenario.split(':')[0]!) && r.scenario.endsWith('(HTTP ceiling)'))!;
console.table(rows.map((r) => ({
  scenario: r.scenario,
  'req/s': Math.round(r.requestsPerSec),
  'orders/s': Math.round(r.ordersPerSec),
  '/healthz req/s': Math.round(healthz(r).requestsPerSec),
  'orders ÷ /healthz': r.ordersPerSec ? `${((100 * r.ordersPerSec) / healthz(r).requestsPerSec).toFixed(1)}%` : '',
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  'non-2xx+errors': r.errors,
  'commands per batch': r.commandsPerBatch === undefined ? '' : r.commandsPerBatch.toFixed(1),
  'server CPU µs/order': Math.round(r.cpuMicrosPerOrder),
  'PostgreSQL CPU µs/order': r.machine ? Math.round((r.machine.postgresSeconds * 1e6) / r.orders) : '',
  'client CPU µs/order': r.machine ? Math.round((r.machine.clientSeconds * 1e6) / r.orders) : '',
  'machine busy %': r.machine ? Math.round(100 * r.machine.busyShare) : '',
  'steal %': r.machine ? Math.round(100 * r.machine.stealShare) : '',
  'longest turn ms': Math.round(r.longestTurnMs),
  'settlement batch ms': r.settlementBatchMs === undefined ? '' : r.settlementBatchMs.toFixed(1),
})));
console.log(`signature verification on ${availableParallelism()} worker threads (crypto ceiling): ${Math.round(verifyRate)}/s`);
