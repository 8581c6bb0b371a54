/**
 * Price history over a year of trades: `npm run bench -- price-history`. On PGlite in memory, then
 * on PostgreSQL when BENCH_DATABASE_URL (or DATABASE_URL) is set (a scratch database, dropped
 * afterwards). Trades are generated directly in SQL: BENCH_MARKETS markets (default 3), each with
 * one or two trades in every minute of a year (every third on token 2, the price a slow wave
 * plus a faster wiggle on a 0.001 tick): 2.4M trades, minutes to generate on PGlite. Each typical query (the repository reads
 * GET /price-history makes for market 1: the first trade, then the page of points) runs
 * BENCH_RUNS times (default 30; heavy ones fewer); p50 and p99. Then what reads of markets and
 * events ask of their trades, for markets 1 and 2: their chance and firstPriceDataAt, and their
 * volumes (all-time and 24 hours), each beside the query it replaced, which read every trade of
 * the markets.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { bucketSpan, MAX_FIDELITY, pageBuckets, type Interval } from '../src/market-data/price-buckets.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { marketTradeMarks, marketVolumes } from '../src/store/catalogue-stats-repository.ts';
import { firstTradeSec, pricePoints } from '../src/store/market-data-prices-repository.ts';
import { migrateToLatest } from '../src/store/migrate.ts';
import { createScratchDatabase } from '../test/helpers/database.ts';

const MARKETS = Number(process.env.BENCH_MARKETS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const YEAR_MINUTES = 365 * 1440;
/** The generated year ends at this minute boundary ("now" for every query). */
const NOW_SEC = Math.floor(Date.UTC(2026, 0, 1) / 1000);
const START_SEC = NOW_SEC - YEAR_MINUTES * 60;
const MARKET = '00000000-0000-4000-8000-000000000001';
const TOKEN1 = '1001';
const TOKEN2 = '1002';

interface Case {
  name: string;
  interval: Interval;
  fidelity: number;
  limit: number;
  sortBy?: 'timestamp' | 'price';
  order?: 'ASC' | 'DESC';
  page?: number;
  token?: string;
  runs?: number;
}

const CASES: Case[] = [
  { name: '1H fidelity 1 (60 points)', interval: '1H', fidelity: 1, limit: 60 },
  { name: '1D fidelity 1 (1,440 points)', interval: '1D', fidelity: 1, limit: 1440 },
  { name: '1D fidelity 15, token 2', interval: '1D', fidelity: 15, limit: 96, token: TOKEN2 },
  { name: '1W fidelity 60 (168 points)', interval: '1W', fidelity: 60, limit: 168 },
  { name: '1M fidelity 60 (720 points)', interval: '1M', fidelity: 60, limit: 720 },
  { name: '1M fidelity 1440 (31 points)', interval: '1M', fidelity: 1440, limit: 31 },
  { name: 'ALL fidelity 1440 (366 points)', interval: 'ALL', fidelity: 1440, limit: 366 },
  { name: 'ALL fidelity 1, newest 1,440 (DESC)', interval: 'ALL', fidelity: 1, limit: 1440, order: 'DESC' },
  { name: 'ALL fidelity 1, page 200 of 1,440', interval: 'ALL', fidelity: 1, limit: 1440, page: 200 },
  { name: '1D fidelity 1 by price (top 100)', interval: '1D', fidelity: 1, limit: 100, sortBy: 'price', order: 'DESC' },
  { name: 'ALL fidelity 1440 by price', interval: 'ALL', fidelity: 1440, limit: 100, sortBy: 'price' },
  { name: '1M fidelity 1 by price (43,200 buckets)', interval: '1M', fidelity: 1, limit: 100, sortBy: 'price', runs: 5 },
  { name: 'ALL fidelity 1 by price (525,600 buckets)', interval: 'ALL', fidelity: 1, limit: 100, sortBy: 'price', runs: 3 },
];

async function generate(store: Store): Promise<number> {
  for (let m = 1; m <= MARKETS; m++) {
    const market = `00000000-0000-4000-8000-${String(m).padStart(12, '0')}`;
    // Minute i holds 1 + i % 2 trades, k-th at second 20k + a jitter; every third trade is on token 2 (at the complement).
    await sql`
      INSERT INTO trades (id, seq, market_id, kind, status, token_id, side, price_micros, maker_token_id, maker_side, maker_price_micros, size_base_units, notional_base_units,
        taker_order_id, maker_order_id, taker_user_id, maker_user_id, taker_wallet, maker_wallet,
        taker_fee_base_units, maker_fee_base_units, tx_hash, matched_at, mined_at, confirmed_at)
      SELECT gen_random_uuid(), n, ${market}::uuid, 'TRANSFER', 'CONFIRMED',
             CASE WHEN n % 3 = 0 THEN ${`${m}002`} ELSE ${`${m}001`} END, 0, CASE WHEN n % 3 = 0 THEN 1000000 - x ELSE x END,
             CASE WHEN n % 3 = 0 THEN ${`${m}002`} ELSE ${`${m}001`} END, 1, CASE WHEN n % 3 = 0 THEN 1000000 - x ELSE x END,
             10000000, x * 10, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
             '0x' || lpad(to_hex(n % 500), 40, '0'), '0x' || lpad(to_hex((n * 7) % 500), 40, '0'), 0, 0, NULL, t, t, t
      FROM (
        SELECT ${m}::bigint * 10000000 + i * 2 + k AS n, to_timestamp(${START_SEC}::bigint + i * 60 + k * 20 + (i * 37) % 20) AS t,
               (500 + round(300 * sin(i / 20000.0 + ${m}) + 80 * sin(i / 97.0)) + k)::bigint * 1000 AS x
        FROM generate_series(0, ${YEAR_MINUTES - 1}) AS i, generate_series(0, i % 2) AS k
      ) g`.execute(store.db);
  }
  await sql`ANALYZE`.execute(store.db);
  const row = await sql<{ n: string }>`SELECT count(*) AS n FROM trades`.execute(store.db);
  return Number(row.rows[0]!.n);
}

/** What PriceHistoryReads.history does once it has found the token's market. */
async function run(store: Store, c: Case): Promise<number> {
  const first = await firstTradeSec(store.db, MARKET);
  const fidelity = Math.min(c.fidelity, MAX_FIDELITY[c.interval]);
  const span = bucketSpan(c.interval, fidelity, NOW_SEC, first)!;
  const order = c.order ?? 'ASC';
  const offset = ((c.page ?? 1) - 1) * c.limit;
  const byTime = (c.sortBy ?? 'timestamp') === 'timestamp';
  const range = byTime ? pageBuckets(span, order, offset, c.limit)! : { fromSec: span.fromSec, toSec: span.fromSec + (span.count - 1) * span.stepSec };
  const token = c.token ?? TOKEN1;
  const points = await pricePoints(store.db, { marketId: MARKET, tokenId: token, ...range, stepSec: span.stepSec },
    { sortBy: c.sortBy ?? 'timestamp', order, offset: byTime ? 0 : offset, limit: c.limit });
  return points.length;
}

const MARKED = [MARKET, '00000000-0000-4000-8000-000000000002'];

/** The reference: the last trade of each market by sequence, over every trade of the markets (before 2026-12-03). */
async function marksByEveryTrade(store: Store): Promise<number> {
  const { rows } = await sql`SELECT DISTINCT ON (market_id) market_id, token_id, price_micros FROM trades
    WHERE market_id IN (${sql.join(MARKED.map((id) => sql`${id}::uuid`))}) AND status <> 'FAILED' ORDER BY market_id, seq DESC`.execute(store.db);
  return rows.length;
}

const DAY_AGO = new Date((NOW_SEC - 86_400) * 1000);

/** The reference: each market's volumes summed from every trade (before 2026-12-03). */
async function volumesByEveryTrade(store: Store): Promise<number> {
  const { rows } = await sql`SELECT market_id, SUM(notional_base_units), COALESCE(SUM(notional_base_units) FILTER (WHERE matched_at >= ${DAY_AGO}), 0) FROM trades
    WHERE market_id IN (${sql.join(MARKED.map((id) => sql`${id}::uuid`))}) AND status <> 'FAILED' GROUP BY market_id`.execute(store.db);
  return rows.length;
}

const MARK_CASES = [
  { name: 'market marks, 2 markets: every trade read (reference)', run: marksByEveryTrade, runs: 5 },
  { name: 'market marks, 2 markets: both ends of the index', run: async (store: Store) => (await marketTradeMarks(store.db, MARKED)).size, runs: RUNS },
  { name: 'market volumes, 2 markets: every trade summed (reference)', run: volumesByEveryTrade, runs: 5 },
  { name: 'market volumes, 2 markets: kept sums, and the first hour of 24', run: async (store: Store) => (await marketVolumes(store.db, MARKED, DAY_AGO)).size, runs: RUNS },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(label: string, store: Store): Promise<void> {
  await migrateToLatest(store.db);
  const started = performance.now();
  const trades = await generate(store);
  console.log(`${label}: generated ${trades.toLocaleString('en')} trades (${MARKETS} markets, a year each) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`| query | points | p50 ms | p99 ms |\n|---|---|---|---|`);
  for (const c of CASES) await report(c.name, c.runs ?? RUNS, () => run(store, c));
  for (const c of MARK_CASES) await report(c.name, c.runs, () => c.run(store));
}

/** One warm-up, then `runs` timed runs of `query`: a row of the table (what it returned, p50, p99). */
async function report(name: string, runs: number, query: () => Promise<number>): Promise<void> {
  await query();
  const times: number[] = [];
  let returned = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    returned = await query();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${name} | ${returned} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`);
}

const pglite = await openStore({ dataDir: 'memory://' });
try {
  await measure('PGlite (memory)', pglite);
} finally {
  await pglite.close();
}
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (databaseUrl) {
  const scratch = await createScratchDatabase(databaseUrl);
  const postgres = await openStore({ databaseUrl: scratch.url, dataDir: 'memory://' });
  try {
    await measure('PostgreSQL', postgres);
  } finally {
    await postgres.close();
    await scratch.drop();
  }
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL)');
}
