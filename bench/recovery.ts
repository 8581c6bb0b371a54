/**
 * Recovery at scale: `npm run bench -- recovery`. How long a node killed with `kill -9` takes to be
 * ready again, against the number of open orders it must put back in its books, on PGlite on disk
 * and (with BENCH_DATABASE_URL or DATABASE_URL) on PostgreSQL. Beside it, the same server's restart
 * with no open order: the cold start every restart pays (issue 37 asks for 1,000,000 open orders
 * within 5 s, the book's hash unchanged). After it, when the restarted engine had also read the
 * stored hashes into its used-hash filter, which it does in the background once ready.
 * BENCH_OPEN_ORDERS lists the sizes (default 100000,200000); BENCH_REFERENCE runs the same
 * against another checkout's build, size by size (bench/builds.ts).
 *
 * The open orders are written straight into the tables while the server is down, as copies of one
 * order placed through the API with fresh ids, hashes and book positions and prices that never
 * cross (their reservation added to the trader's locked collateral), and the engine's journal and
 * snapshots are emptied: the restart then starts the engine from the tables (src/engine/genesis.ts)
 * and writes its first snapshot, the path of a store made before the journal existed. A million
 * orders through HTTP would take minutes and measure order entry, not recovery. After that restart
 * the book must hold exactly what was written; `kill -9` then restarts it from its snapshot and the
 * journal after it, and its hash must be the one before the kill.
 */
import { metricValues } from '../test/helpers/metrics.ts';
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';
import { json, postOrder, setUpMarket, setUpTrader, unsignedBuyJson } from './exchange-client.ts';
import { benchBuilds } from './builds.ts';
import { seedOpenOrders } from '../test/helpers/seed-open-orders.ts';
import { onEachStore } from './stores.ts';

const SIZES = (process.env.BENCH_OPEN_ORDERS ?? '100000,200000').split(',').map(Number);
const ORDER_SIZE_UNITS = 10;

interface Row { store: string; openOrders: number; readyMs: number; afterKillMs: number; hashFilterMs: number | undefined; bookLevels: number }

/** A start from the tables of a million orders (a store made before the journal) took over a minute on a busy day. */
const READY_WITHIN_MS = 600_000;

async function readyAfterStart(env: Record<string, string>, cli: string | undefined, port?: number): Promise<{ server: ProcessServer; ms: number; started: number }> {
  const started = performance.now();
  const server = await startProcessServer(env, port, cli, READY_WITHIN_MS);
  return { server, ms: performance.now() - started, started };
}

const HASH_FILTER_READY = 'pmx_engine_used_hash_filter_ready';

/**
 * When, after `started`, the engine had read the stored orders' hashes into its used-hash filter
 * (docs/engine.md "Admission"); undefined for a build without that filter.
 */
async function hashFilterReadAfter(server: ProcessServer, started: number): Promise<number | undefined> {
  for (;;) {
    const ready = (await metricValues(server, [HASH_FILTER_READY])).get(HASH_FILTER_READY);
    if (ready === undefined) return undefined;
    if (ready === 1) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function book(server: ProcessServer, tokenId: string): Promise<{ hash: string; bids: { size: string }[] }> {
  return json(server.api(`/order-book/book?token_id=${tokenId}`));
}

async function benchStore(label: string, env: Record<string, string>, count: number, cli: string | undefined): Promise<Row> {
  let { server } = await readyAfterStart(env, cli);
  const market = await setUpMarket(server);
  const trader = await setUpTrader(server);
  const sizeBaseUnits = ORDER_SIZE_UNITS * 1_000_000;
  const body = JSON.stringify(unsignedBuyJson({ salt: 1n, tokenId: market.tokenId1, makerAmount: BigInt(sizeBaseUnits / 100), takerAmount: BigInt(sizeBaseUnits) }));
  const template = await postOrder(server, trader, body);
  await server.stop();

  await seedOpenOrders(env, template.id, count);
  const restart = await readyAfterStart(env, cli);
  server = restart.server;
  const before = await book(server, market.tokenId1);
  const resting = before.bids.reduce((sum, level) => sum + Number(level.size), 0);
  if (resting !== (count + 1) * ORDER_SIZE_UNITS) throw new Error(`the book holds ${resting} units, not the ${(count + 1) * ORDER_SIZE_UNITS} seeded`);

  await server.crash();
  const afterKill = await readyAfterStart(env, cli, server.port);
  try {
    const after = await book(afterKill.server, market.tokenId1);
    if (after.hash !== before.hash) throw new Error(`the book hash after kill -9 is ${after.hash}, before it was ${before.hash}`);
    const hashFilterMs = await hashFilterReadAfter(afterKill.server, afterKill.started);
    return { store: label, openOrders: count + 1, readyMs: restart.ms, afterKillMs: afterKill.ms, hashFilterMs, bookLevels: after.bids.length };
  } finally {
    await afterKill.server.stop();
  }
}

const rows: Row[] = [];
for (const count of [0, ...SIZES]) {
  for (const build of benchBuilds()) rows.push(...(await onEachStore((label, env) => benchStore(`${build.name}${label}`, env, count, build.cli))));
}
console.table(rows.map((row) => {
  const cold = rows.find((r) => r.store === row.store && r.openOrders === 1)!;
  return {
    store: row.store,
    'open orders': row.openOrders,
    'ready after restart (ms)': Math.round(row.readyMs),
    'ready after kill -9 (ms)': Math.round(row.afterKillMs),
    'µs per open order beyond the cold start': row.openOrders > 1 ? ((row.afterKillMs - cold.afterKillMs) * 1000 / (row.openOrders - 1)).toFixed(1) : '',
    'used-hash filter read after kill -9 (ms)': row.hashFilterMs === undefined ? '' : Math.round(row.hashFilterMs),
    'book levels': row.bookLevels,
  };
}));
