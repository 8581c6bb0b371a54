/**
 * Trades settled on the embedded chain, end to end through a real server process (issue 39's
 * targets): `npm run bench -- settlement [--fills 6000] [--seconds 10] [--rate 200]`.
 *
 * 1. Backlog: a server with CHAIN=embedded, funded makers and takers (admin credits mint on
 *    chain), and groups of crossing orders entered as fast as the server takes them (32 lanes,
 *    each a batch of 1-3 resting maker orders then one taker order that takes them: MINT and
 *    COMPLEMENTARY alternately); from the first order until every trade is CONFIRMED, as the
 *    parties' `/user` sockets hear it. Fills (trades) per second and matches (taker orders, one
 *    `matchOrders` each) per second. Beside it, the same backlog on a server with CHAIN=none
 *    (settlement rounds in the engine's ledger): what entering those orders alone allows on this
 *    machine, the ceiling of the settled figure.
 * 2. MATCHED → MINED at a steady rate (200 trades/s, one maker and one taker per trade): from the
 *    moment the trade's MATCHED `trade-update` arrives to the moment its MINED one does (the
 *    Trade's `matchedAt` is in whole seconds, too coarse to time this; both arrivals are on this
 *    client's clock, so the difference is the server's and the chain's time, not the clocks').
 * 3. Order entry, CHAIN=none beside CHAIN=embedded: bench/http-orders.ts's unsigned singles (BUYs
 *    of both tokens, one in ten crossing: MINTs that then settle) at 64 connections for
 *    BENCH_SECONDS (6), each server in turn, alternately BENCH_ROUNDS (2) times each, in the same
 *    run.
 *
 * Beside each figure: its target, the server's CPU time (its Node process and PGlite's thread)
 * and anvil's, per trade or order. With BENCH_REFERENCE=<another checkout> (bench/builds.ts) its
 * build runs each phase first, in the same run. A bench reports, it never asserts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { io, type Socket } from 'socket.io-client';
import { hmacSignature, signedMessage } from '../src/identity/hmac.ts';
import { metricValues } from '../test/helpers/metrics.ts';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { placeRequest } from './order-stream.ts';
import { hmacHeaders, json, postOrder, setUpMarket, setUpTrader, UNLIMITED_RATES, unsignedBuyJson, type BenchTrader } from './exchange-client.ts';
import { benchBuilds } from './builds.ts';
import { EMBEDDED_STORE_ENV } from './stores.ts';

const option = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const BACKLOG_FILLS = option('fills', 6000);
const STEADY_SECONDS = option('seconds', 10);
const STEADY_RATE = option('rate', 200);
const ENTRY_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ENTRY_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LANES = 32;
const MAKERS = 16;
const TAKERS = 16;
/** Every maker order is 10 tokens, so a taker of k × 10 takes exactly k whole makers and a backlog's trades are its maker orders. */
const SIZE = 10_000_000n;
type Build = ReturnType<typeof benchBuilds>[number];
const builds = benchBuilds();

type Market = { id: string; tokenId1: string; tokenId2: string };

/** An unsigned GTC order of `size` tokens at `cents`: a BUY pays collateral for tokens, a SELL gives tokens for collateral. */
function order(side: 'BUY' | 'SELL', tokenId: string, cents: number, size = SIZE): Record<string, unknown> {
  const salt = BigInt(`0x${randomBytes(12).toString('hex')}`);
  const cost = (BigInt(cents) * size) / 100n;
  if (side === 'BUY') return unsignedBuyJson({ salt, tokenId, makerAmount: cost, takerAmount: size });
  return { ...unsignedBuyJson({ salt, tokenId, makerAmount: size, takerAmount: cost }), side: 1 };
}

async function place(server: ProcessServer, trader: BenchTrader, body: Record<string, unknown>): Promise<any> {
  return postOrder(server, trader, JSON.stringify(body));
}

async function placeBatch(server: ProcessServer, trader: BenchTrader, orders: Record<string, unknown>[]): Promise<any> {
  const text = JSON.stringify({ orders });
  const answer = await json(server.api('/orders/batch'), { method: 'POST', headers: hmacHeaders(trader, 'POST', '/api/v1/orders/batch', text), body: text });
  const refused = (answer.results as { orderId?: string; errorMsg?: string }[]).filter((r) => !r.orderId);
  if (refused.length > 0) throw new Error(`a batch order was refused: ${JSON.stringify(refused[0])}`);
  return answer;
}

/** When each trade's statuses first arrived on any party's `/user` socket (performance.now()). */
class TradeWatch {
  readonly seen = new Map<string, Map<string, number>>();
  private readonly sockets: Socket[] = [];
  private waiters: (() => void)[] = [];

  async connect(server: ProcessServer, traders: BenchTrader[]): Promise<void> {
    await Promise.all(traders.map((trader) => this.connectOne(server, trader)));
  }

  private connectOne(server: ProcessServer, trader: BenchTrader): Promise<void> {
    const timestamp = String(Date.now());
    const signature = hmacSignature(trader.secret, signedMessage(timestamp, 'GET', '/user', ''));
    const socket = io(`${server.url}/user`, { transports: ['websocket'], auth: { apiKey: trader.apiKey, passphrase: trader.passphrase, timestamp, signature } });
    this.sockets.push(socket);
    socket.on('trade-update', (trade: { id: string; status: string }) => {
      const statuses = this.seen.get(trade.id) ?? new Map<string, number>();
      this.seen.set(trade.id, statuses);
      if (!statuses.has(trade.status)) statuses.set(trade.status, performance.now());
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  }

  count(status: string): number {
    let n = 0;
    for (const statuses of this.seen.values()) if (statuses.has(status)) n++;
    return n;
  }

  /** Until `done()` holds, or `timeoutMs` passes without a new update. */
  async until(done: () => boolean, timeoutMs = 60_000): Promise<boolean> {
    while (!done()) {
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        this.waiters.push(() => { clearTimeout(timer); resolve(true); });
      });
      if (!woken) return false;
    }
    return true;
  }

  close(): void {
    for (const socket of this.sockets) socket.close();
  }
}

/** Each server's data directory: its anvil is the one whose command line names it. */
const dataDirs = new WeakMap<ProcessServer, string>();

/** CPU seconds of the server's Node process (its threads, PGlite's included) and of its anvil (not the other anvils of a shared machine). */
async function cpu(server: ProcessServer): Promise<{ server: number; anvil: number }> {
  const values = await metricValues(server, ['process_cpu_seconds_total']);
  return { server: values.get('process_cpu_seconds_total') ?? 0, anvil: ticksOf('anvil', dataDirs.get(server)!) / 100 };
}

/** User and system ticks (and reaped children's) of the processes named `comm` whose command line holds `argument`; 0 off Linux. */
function ticksOf(comm: string, argument: string): number {
  let ticks = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== comm) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(argument)) continue;
    } catch {
      continue;
    }
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks;
}

/** The port chosen for the server is free when chosen, not when the server binds it (this machine is shared): a lost race is tried again. */
async function startServer(env: Record<string, string>, cli: string | undefined): Promise<ProcessServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProcessServer(env, undefined, cli);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function withServer<T>(build: Build, env: Record<string, string>, run: (server: ProcessServer) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-bench-settlement-'));
  try {
    const server = await startServer({ ...EMBEDDED_STORE_ENV, DATA_DIR: dir, LOG_LEVEL: 'warn', ...UNLIMITED_RATES, ...env }, build.cli);
    dataDirs.set(server, dir);
    try {
      return await run(server);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rpc<T>(server: ProcessServer, method: string, params: unknown[]): Promise<T> {
  const answer = await json(`${server.url}/rpc`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result as T;
}

/** The settlement key of the standard exchange (anvil's development account 1, src/chain/settlement-keys.ts). */
const SETTLER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/** What the chain holds between two heights: the settlement's transactions, their gas, and the blocks without any. */
async function chainBetween(server: ProcessServer, fromBlock: number, toBlock: number): Promise<{ blocks: number; settlementTxs: number; gasPerTx: number; emptyBlocks: number }> {
  let settlementTxs = 0;
  let gas = 0n;
  let emptyBlocks = 0;
  for (let height = fromBlock + 1; height <= toBlock; height++) {
    const block = await rpc<{ transactions: { from: string; hash: string }[]; gasUsed: string }>(server, 'eth_getBlockByNumber', [`0x${height.toString(16)}`, true]);
    const mine = block.transactions.filter((tx) => tx.from.toLowerCase() === SETTLER);
    if (block.transactions.length === 0) emptyBlocks++;
    settlementTxs += mine.length;
    if (mine.length > 0) gas += BigInt(block.gasUsed);
  }
  return { blocks: toBlock - fromBlock, settlementTxs, gasPerTx: settlementTxs > 0 ? Number(gas / BigInt(settlementTxs)) : 0, emptyBlocks };
}

interface Traders { makers: BenchTrader[]; takers: BenchTrader[] }

/**
 * Makers and takers, funded on chain; each maker then holds `tokensEach` of token 1 (on chain and in
 * the ledger: bought in MINTs against a funder, which are settled before this returns) to sell in
 * COMPLEMENTARY trades.
 */
async function setUpTraders(server: ProcessServer, market: Market, watch: TradeWatch, tokensEach: bigint): Promise<Traders> {
  const all = await Promise.all(Array.from({ length: MAKERS + TAKERS + 1 }, () => setUpTrader(server)));
  const makers = all.slice(0, MAKERS);
  const takers = all.slice(MAKERS, MAKERS + TAKERS);
  const funder = all.at(-1)!;
  await watch.connect(server, all);
  if (tokensEach > 0n) {
    for (const maker of makers) {
      await place(server, maker, order('BUY', market.tokenId1, 50, tokensEach));
      await place(server, funder, order('BUY', market.tokenId2, 50, tokensEach));
    }
    const settled = await watch.until(() => watch.count('CONFIRMED') >= MAKERS);
    if (!settled) throw new Error(`the makers' tokens were not settled: ${watch.count('CONFIRMED')} of ${MAKERS} trades confirmed`);
  }
  return { makers, takers };
}

interface BacklogResult { fills: number; matches: number; orders: number; entrySeconds: number; minedSeconds: number; confirmedSeconds: number; failed: number; chain: Awaited<ReturnType<typeof chainBetween>> | undefined; cpu: { server: number; anvil: number } }

/**
 * Groups of k = 1, 2, 3 makers' orders then one taker's, MINT and COMPLEMENTARY alternately, on
 * LANES lanes at once. MINT: makers bid 0.40 for token 1, the taker buys token 2 at 0.60.
 * COMPLEMENTARY: makers sell token 1 at 0.60, the taker buys it at 0.60. The two kinds never cross
 * each other (bids at 0.40, asks at 0.60), and on a lane a taker follows its makers'
 * acknowledgement, so the book always holds what every taker sent can take: each takes k whole
 * makers, and the backlog's trades are exactly its maker orders.
 */
async function backlog(server: ProcessServer, market: Market, traders: Traders, watch: TradeWatch, onChain = true): Promise<BacklogResult> {
  const before = watch.seen.size;
  const cpuBefore = await cpu(server);
  const fromBlock = onChain ? Number(await rpc<string>(server, 'eth_blockNumber', [])) : 0;
  let makerOrders = 0;
  let matches = 0;
  let group = 0;
  const started = performance.now();
  const lane = async () => {
    while (makerOrders < BACKLOG_FILLS) {
      const g = group++;
      const k = Math.min(1 + (g % 3), BACKLOG_FILLS - makerOrders);
      makerOrders += k;
      const maker = traders.makers[Math.floor(g / 2) % MAKERS]!;
      const taker = traders.takers[g % TAKERS]!;
      const mint = g % 2 === 0;
      const makersOrders = Array.from({ length: k }, () => (mint ? order('BUY', market.tokenId1, 40) : order('SELL', market.tokenId1, 60)));
      await placeBatch(server, maker, makersOrders);
      const answer = await place(server, taker, mint ? order('BUY', market.tokenId2, 60, SIZE * BigInt(k)) : order('BUY', market.tokenId1, 60, SIZE * BigInt(k)));
      if (answer.status !== 'EXECUTED') throw new Error(`a taker did not fill: ${JSON.stringify(answer)}`);
      matches++;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  const entrySeconds = (performance.now() - started) / 1000;
  const expected = before + makerOrders;
  const done = () => watch.seen.size >= expected && [...watch.seen.values()].every((s) => s.has('CONFIRMED') || s.has('FAILED'));
  if (!(await watch.until(done))) console.error(`backlog: stalled at ${watch.seen.size - before} of ${makerOrders} trades seen, ${watch.count('CONFIRMED') - MAKERS} confirmed`);
  const cpuAfter = await cpu(server);
  const chain = onChain ? await chainBetween(server, fromBlock, Number(await rpc<string>(server, 'eth_blockNumber', []))) : undefined;
  const last = (status: string) => Math.max(...[...watch.seen.values()].map((s) => s.get(status) ?? 0));
  return {
    fills: makerOrders, matches, orders: makerOrders + matches, entrySeconds,
    minedSeconds: (last('MINED') - started) / 1000,
    confirmedSeconds: (last('CONFIRMED') - started) / 1000,
    failed: watch.count('FAILED'),
    chain,
    cpu: { server: cpuAfter.server - cpuBefore.server, anvil: cpuAfter.anvil - cpuBefore.anvil },
  };
}

interface SteadyResult { trades: number; sentSeconds: number; latenciesMs: number[]; failed: number; cpu: { server: number; anvil: number } }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * STEADY_RATE trades a second for STEADY_SECONDS: every 50 ms a tick's worth of pairs, each a
 * maker's resting order then a taker's that takes it (MINT and COMPLEMENTARY alternately), the
 * pairs of a tick sent at once. Ticks do not wait for each other, so a slow server gets a queue,
 * not a slower rate.
 */
async function steady(server: ProcessServer, market: Market, traders: Traders, watch: TradeWatch): Promise<SteadyResult> {
  const tickMs = 50;
  const perTick = Math.max(1, Math.round((STEADY_RATE * tickMs) / 1000));
  const total = STEADY_RATE * STEADY_SECONDS;
  const cpuBefore = await cpu(server);
  const pairs: Promise<void>[] = [];
  const refused: unknown[] = [];
  let n = 0;
  const pair = async (i: number) => {
    const mint = i % 2 === 0;
    const maker = traders.makers[Math.floor(i / 2) % MAKERS]!;
    const taker = traders.takers[i % TAKERS]!;
    await place(server, maker, mint ? order('BUY', market.tokenId1, 40) : order('SELL', market.tokenId1, 60));
    await place(server, taker, mint ? order('BUY', market.tokenId2, 60) : order('BUY', market.tokenId1, 60));
  };
  const started = performance.now();
  while (n < total) {
    const wait = started + (n / STEADY_RATE) * 1000 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // A refused order is counted, not thrown: a rejection left unawaited until Promise.all would end the process and orphan the server.
    for (let k = 0; k < perTick && n < total; k++) pairs.push(pair(n++).catch((error) => { refused.push(error); }));
  }
  const sentSeconds = (performance.now() - started) / 1000;
  await Promise.all(pairs);
  if (refused.length > 0) console.error(`steady: ${refused.length} pairs refused, the first: ${String(refused[0])}`);
  const ids = new Set<string>();
  const done = () => {
    for (const [id, statuses] of watch.seen) if (statuses.get('MATCHED')! >= started && (statuses.has('MINED') || statuses.has('FAILED'))) ids.add(id);
    return ids.size >= total;
  };
  if (!(await watch.until(done, 30_000))) console.error(`steady: ${ids.size} of ${total} trades mined`);
  const cpuAfter = await cpu(server);
  const trades = [...watch.seen.values()].filter((s) => (s.get('MATCHED') ?? 0) >= started);
  const latenciesMs = trades.filter((s) => s.has('MINED')).map((s) => s.get('MINED')! - s.get('MATCHED')!).sort((a, b) => a - b);
  return {
    trades: trades.length, sentSeconds, latenciesMs, failed: trades.filter((s) => s.has('FAILED')).length,
    cpu: { server: cpuAfter.server - cpuBefore.server, anvil: cpuAfter.anvil - cpuBefore.anvil },
  };
}

interface EntryResult { build: string; chain: string; ordersPerSec: number; p50: number; p99: number; errors: number; cpuMicrosPerOrder: number; anvilMicrosPerOrder: number }

/** bench/http-orders.ts's unsigned singles: BUYs of both tokens from two traders, one in ten crossing (a MINT at 0.60 + 0.40). */
async function orderEntry(build: Build, chain: 'none' | 'embedded'): Promise<EntryResult> {
  return withServer(build, { CHAIN: chain }, async (server) => {
    const market = await setUpMarket(server);
    const traders = [await setUpTrader(server), await setUpTrader(server)];
    let i = 0;
    const next = () => {
      const n = i++;
      const trader = traders[n % 2]!;
      const crossing = n % 10 === 9;
      const cents = crossing ? 60 : 1 + (n % 45);
      const body = JSON.stringify(order('BUY', n % 2 === 0 ? market.tokenId1 : market.tokenId2, cents));
      return placeRequest(trader, body);
    };
    // A short warm-up (the first requests compile routes), then the measured run.
    await autocannon({ url: server.url, connections: 64, duration: 1, requests: [{ setupRequest: (request: any) => ({ ...request, ...next() }) }] });
    const before = await cpu(server);
    const result = await autocannon({ url: server.url, connections: 64, duration: ENTRY_SECONDS, requests: [{ setupRequest: (request: any) => ({ ...request, ...next() }) }] });
    const after = await cpu(server);
    const orders = result.requests.total || 1;
    return {
      build: build.name, chain, ordersPerSec: result['2xx'] / ENTRY_SECONDS, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors,
      cpuMicrosPerOrder: ((after.server - before.server) * 1e6) / orders, anvilMicrosPerOrder: ((after.anvil - before.anvil) * 1e6) / orders,
    };
  });
}

const rows: Record<string, string | number>[] = [];
const figure = (build: Build, name: string, value: string, target: string, met: boolean | undefined, notes: string) =>
  rows.push({ ...(builds.length > 1 ? { build: build.name.trim() || 'this' } : {}), figure: name, measured: value, target, met: met === undefined ? '' : met ? 'yes' : 'NO', notes });

/** Token 1 each maker needs for the COMPLEMENTARY half of `fills` (its sells), twice over. */
const tokensEach = (fills: number): bigint => BigInt(Math.ceil(fills / 2 / MAKERS)) * 2n * SIZE;

function logBacklog(label: string, b: BacklogResult): void {
  console.log(`${label}backlog: ${b.fills} fills in ${b.matches} matches (${b.orders} orders) entered in ${b.entrySeconds.toFixed(2)} s; last MINED at ${b.minedSeconds.toFixed(2)} s, last CONFIRMED at ${b.confirmedSeconds.toFixed(2)} s; ${b.failed} FAILED`);
  console.log(`${label}backlog CPU: server ${b.cpu.server.toFixed(1)} s (${Math.round((b.cpu.server * 1e6) / b.fills)} µs/fill), anvil ${b.cpu.anvil.toFixed(1)} s (${Math.round((b.cpu.anvil * 1e6) / b.fills)} µs/fill)`);
}

/** The same backlog on CHAIN=none: the fills a second this machine enters and settles in the engine's own ledger, the embedded chain's ceiling. */
async function backlogWithoutChain(build: Build): Promise<void> {
  const label = `${build.name.trim() ? `${build.name.trim()}: ` : ''}CHAIN=none `;
  await withServer(build, { CHAIN: 'none' }, async (server) => {
    const market = await setUpMarket(server);
    const watch = new TradeWatch();
    try {
      const traders = await setUpTraders(server, market, watch, tokensEach(BACKLOG_FILLS));
      const b = await backlog(server, market, traders, watch, false);
      logBacklog(label, b);
      figure(build, 'backlog without a chain (CHAIN=none): fills CONFIRMED/s', String(Math.round(b.fills / b.confirmedSeconds)), '', undefined, `the same orders settled in the engine's own ledger: the ceiling of the embedded chain's backlog on this machine; server ${Math.round((b.cpu.server * 1e6) / b.fills)} µs/fill`);
    } finally {
      watch.close();
    }
  });
}

/** The backlog, then the steady rate, on one server of `build`. */
async function settle(build: Build): Promise<void> {
  const label = build.name.trim() ? `${build.name.trim()}: ` : '';
  await withServer(build, { CHAIN: 'embedded' }, async (server) => {
    const market = await setUpMarket(server);
    const watch = new TradeWatch();
    try {
      const traders = await setUpTraders(server, market, watch, tokensEach(BACKLOG_FILLS + STEADY_RATE * STEADY_SECONDS));

      const b = await backlog(server, market, traders, watch);
      logBacklog(label, b);
      const { chain } = b;
      if (chain) console.log(`${label}backlog on chain: ${chain.settlementTxs} settlement transactions (${(b.matches / chain.settlementTxs).toFixed(1)} matches, ${(b.fills / chain.settlementTxs).toFixed(1)} fills, ${chain.gasPerTx.toLocaleString('en')} gas each on average) in ${chain.blocks} blocks, ${chain.emptyBlocks} of them empty`);
      const fillsPerSec = b.fills / b.confirmedSeconds;
      figure(build, 'backlog: fills CONFIRMED/s', String(Math.round(fillsPerSec)), '≥ 500', fillsPerSec >= 500, `${b.fills} fills, first order to last CONFIRMED ${b.confirmedSeconds.toFixed(1)} s; entry alone ${b.entrySeconds.toFixed(1)} s`);
      figure(build, 'backlog: matches CONFIRMED/s', String(Math.round(b.matches / b.confirmedSeconds)), '', undefined, `${b.matches} matchOrders (1-3 makers each)`);
      figure(build, 'backlog: fills MINED/s', String(Math.round(b.fills / b.minedSeconds)), '', undefined, 'first order to last MINED');
      figure(build, 'backlog: server CPU µs/fill', String(Math.round((b.cpu.server * 1e6) / b.fills)), '', undefined, `its orders' entry included; anvil ${Math.round((b.cpu.anvil * 1e6) / b.fills)} µs/fill`);

      const s = await steady(server, market, traders, watch);
      const p50 = percentile(s.latenciesMs, 50);
      const p99 = percentile(s.latenciesMs, 99);
      console.log(`${label}steady: ${s.trades} trades sent in ${s.sentSeconds.toFixed(1)} s (${Math.round(s.trades / s.sentSeconds)}/s), ${s.latenciesMs.length} MINED, ${s.failed} FAILED; MATCHED → MINED p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(s.latenciesMs.at(-1) ?? NaN).toFixed(0)} ms`);
      console.log(`${label}steady CPU: server ${s.cpu.server.toFixed(1)} s (${Math.round((s.cpu.server * 1e6) / s.trades)} µs/trade), anvil ${s.cpu.anvil.toFixed(1)} s (${Math.round((s.cpu.anvil * 1e6) / s.trades)} µs/trade)`);
      figure(build, `${STEADY_RATE} trades/s: MATCHED → MINED p99`, `${p99.toFixed(0)} ms`, '< 2000 ms', p99 < 2000, `p50 ${p50.toFixed(0)} ms, max ${(s.latenciesMs.at(-1) ?? NaN).toFixed(0)} ms; ${s.trades} trades over ${s.sentSeconds.toFixed(1)} s`);
    } finally {
      watch.close();
    }
  });
}

/** Order entry on `CHAIN=none` beside `CHAIN=embedded`, alternately ENTRY_ROUNDS times each: the machine's load drifts (it is shared), and alternating spreads the drift over both. */
async function entryRatios(build: Build): Promise<void> {
  const entries: EntryResult[] = [];
  for (let round = 0; round < ENTRY_ROUNDS; round++) entries.push(await orderEntry(build, 'none'), await orderEntry(build, 'embedded'));
  for (const e of entries) console.log(`${e.build.trim() ? `${e.build.trim()}: ` : ''}order entry, CHAIN=${e.chain}: ${Math.round(e.ordersPerSec)} orders/s, p50 ${e.p50} ms, p99 ${e.p99} ms, ${e.errors} errors; server ${Math.round(e.cpuMicrosPerOrder)} µs/order, anvil ${Math.round(e.anvilMicrosPerOrder)} µs/order`);
  const meanOf = (chain: string, value: (e: EntryResult) => number) => {
    const runs = entries.filter((e) => e.chain === chain);
    return runs.reduce((sum, e) => sum + value(e), 0) / runs.length;
  };
  const [rateNone, rateEmbedded] = [meanOf('none', (e) => e.ordersPerSec), meanOf('embedded', (e) => e.ordersPerSec)];
  const [p99None, p99Embedded] = [meanOf('none', (e) => e.p99), meanOf('embedded', (e) => e.p99)];
  const [cpuNone, cpuEmbedded] = [meanOf('none', (e) => e.cpuMicrosPerOrder), meanOf('embedded', (e) => e.cpuMicrosPerOrder + e.anvilMicrosPerOrder)];
  const means = ENTRY_ROUNDS > 1 ? `means of ${ENTRY_ROUNDS} runs each, alternated` : 'one run each';
  if (rateNone === 0 || p99None === 0) console.error('order entry: the CHAIN=none server answered nothing in time (the machine is too busy); the ratios below mean nothing');
  figure(build, 'order entry: orders/s embedded ÷ none', `${((100 * rateEmbedded) / rateNone).toFixed(0)}%`, '≥ 90%', rateEmbedded >= 0.9 * rateNone, `${Math.round(rateEmbedded)} vs ${Math.round(rateNone)} orders/s (64 connections, ${ENTRY_SECONDS} s, ${means})`);
  figure(build, 'order entry: p99 embedded ÷ none', `${((100 * p99Embedded) / p99None).toFixed(0)}%`, '≤ 110%', p99Embedded <= p99None * 1.1, `${Math.round(p99Embedded)} vs ${Math.round(p99None)} ms`);
  figure(build, 'order entry: CPU µs/order embedded ÷ none', `${((100 * cpuEmbedded) / cpuNone).toFixed(0)}%`, '', undefined, `${Math.round(cpuEmbedded)} (server + anvil) vs ${Math.round(cpuNone)} µs per order: steadier than rates on a shared machine`);
}

console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
for (const build of builds) {
  await backlogWithoutChain(build);
  await settle(build);
}
for (const build of builds) await entryRatios(build);

console.log(`\n${availableParallelism()} CPUs shared by the client, the server, its PGlite thread and anvil; load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min) at the end: a busy machine gives each process less than its core`);
console.table(rows);
