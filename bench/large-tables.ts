/**
 * Order entry into a large `orders` table, PostgreSQL only: `npm run bench -- large-tables`. The
 * http-orders bench starts from empty tables, where every index fits in memory and random keys
 * cost nothing; an exchange that has run for months holds millions of rows. Per build (with
 * BENCH_REFERENCE, that checkout's first), a server on a scratch database gets
 * BENCH_PRELOAD_ORDERS rows (default 2,000,000: settled orders with random version-4 ids and
 * hashes, as an exchange's older rows are), then, after a checkpoint, unsigned single orders as
 * http-orders sends them, BENCH_PHASES times. Each phase prints, per order, the WAL PostgreSQL
 * wrote and its full-page images (`pg_stat_wal`: a leaf first touched since the last checkpoint is
 * written whole), PostgreSQL's and the server's CPU, beside orders/s and p99.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { metricValues } from '../test/helpers/metrics.ts';
import { startProcessServer } from '../test/helpers/process-server.ts';
import { createScratchDatabase } from '../test/helpers/database.ts';
import { benchBuilds } from './builds.ts';
import { postOrder, setUpMarket, setUpTrader, UNLIMITED_RATES } from './exchange-client.ts';
import { cpuSpent, sampleCpu } from './machine-cpu.ts';
import { createOrderJson, orderStruct, unsignedOrderStream } from './order-stream.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PRELOAD = Number(process.env.BENCH_PRELOAD_ORDERS ?? 2_000_000);
const PHASES = Number(process.env.BENCH_PHASES ?? 2);
/** Rows preloaded a statement: each its own transaction, so the preload's WAL is checkpointed away before the phases. */
const PRELOAD_CHUNK = 250_000;

interface Wal { records: number; fpi: number; bytes: number }

async function walNow(db: pg.Client): Promise<Wal> {
  const { rows } = await db.query<{ wal_records: string; wal_fpi: string; wal_bytes: string }>('SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal');
  return { records: Number(rows[0]!.wal_records), fpi: Number(rows[0]!.wal_fpi), bytes: Number(rows[0]!.wal_bytes) };
}

/**
 * Copies of one placed order's row, settled (CANCELLED: the engine holds no such order), each with
 * a random id and hash: the older rows of an exchange whose ids were random.
 */
async function preload(db: pg.Client, templateId: string): Promise<void> {
  const { rows } = await db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position`);
  const replaced: Record<string, string> = {
    id: 'gen_random_uuid()',
    hash: `'0x' || md5(random()::text) || md5(random()::text)`,
    status: `'CANCELLED'`,
    idempotency_key: 'NULL',
    book_seq: `o.book_seq - g`,
    created_at: `o.created_at - g * interval '1 millisecond'`,
  };
  const columns = rows.map((r) => r.column_name);
  const values = columns.map((c) => replaced[c] ?? `o.${c}`);
  for (let done = 0; done < PRELOAD; done += PRELOAD_CHUNK) {
    const count = Math.min(PRELOAD_CHUNK, PRELOAD - done);
    await db.query(`INSERT INTO orders (${columns.join(', ')}) SELECT ${values.join(', ')} FROM orders o, generate_series($2::bigint + 1, $2::bigint + $3) AS g WHERE o.id = $1`, [templateId, done, count]);
  }
  await db.query('VACUUM (ANALYZE) orders');
}

interface Phase { build: string; phase: number; ordersPerSec: number; p99: number; errors: number; walBytes: number; fpi: number; postgresMicros: number | undefined; serverMicros: number }

async function benchBuild(name: string, baseUrl: string, cli: string | undefined): Promise<Phase[]> {
  const scratch = await createScratchDatabase(baseUrl);
  const server = await startProcessServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'warn', ...UNLIMITED_RATES }, undefined, cli);
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  try {
    const market = await setUpMarket(server);
    const traders = [await setUpTrader(server), await setUpTrader(server)];
    const body = JSON.stringify(createOrderJson(orderStruct(0, traders[0]!, market)));
    const placed = await postOrder(server, traders[0]!, body);
    const started = performance.now();
    await preload(db, placed.id);
    console.log(`${name}: ${PRELOAD.toLocaleString('en')} orders preloaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const phases: Phase[] = [];
    const next = unsignedOrderStream(traders, market);
    for (let phase = 1; phase <= PHASES; phase++) {
      await db.query('CHECKPOINT');
      const walBefore = await walNow(db);
      const cpuBefore = sampleCpu();
      const serverBefore = (await metricValues(server, ['process_cpu_seconds_total'])).get('process_cpu_seconds_total') ?? 0;
      const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION_S, requests: [{ setupRequest: (request: any) => ({ ...request, ...next() }) }] });
      const machine = cpuSpent(cpuBefore, sampleCpu());
      const serverAfter = (await metricValues(server, ['process_cpu_seconds_total'])).get('process_cpu_seconds_total') ?? 0;
      const walAfter = await walNow(db);
      const orders = result['2xx'] || 1;
      phases.push({
        build: name, phase, ordersPerSec: result['2xx'] / DURATION_S, p99: result.latency.p99, errors: result.non2xx + result.errors,
        walBytes: (walAfter.bytes - walBefore.bytes) / orders, fpi: (walAfter.fpi - walBefore.fpi) / orders,
        postgresMicros: machine && (machine.postgresSeconds * 1e6) / orders, serverMicros: ((serverAfter - serverBefore) * 1e6) / orders,
      });
    }
    return phases;
  } finally {
    await db.end();
    await server.stop();
    await scratch.drop();
  }
}

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('large-tables: needs PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL); skipped');
} else {
  const phases: Phase[] = [];
  for (const build of benchBuilds()) phases.push(...(await benchBuild(build.name.trim() || 'this build', baseUrl, build.cli)));
  console.log(`\n${PRELOAD.toLocaleString('en')} orders in the table before, ${CONNECTIONS} connections, ${DURATION_S} s a phase, each after a checkpoint`);
  console.table(phases.map((p) => ({
    build: p.build,
    phase: p.phase,
    'orders/s': Math.round(p.ordersPerSec),
    'p99 ms': p.p99,
    'non-2xx+errors': p.errors,
    'WAL bytes/order': Math.round(p.walBytes),
    'full-page images/order': p.fpi.toFixed(2),
    'PostgreSQL CPU µs/order': p.postgresMicros === undefined ? '' : Math.round(p.postgresMicros),
    'server CPU µs/order': Math.round(p.serverMicros),
  })));
}
