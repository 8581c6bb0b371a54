/**
 * Portfolio and profile reads of a heavy user: `npm run bench -- portfolio`. One user holds 5,000
 * positions (4,000 open, 1,000 closed) across 2,500 markets, with 100,000 trade rows (half as
 * taker, half as maker) and a year of hourly P&L; the rows are written straight into the tables
 * (markets copied from a published template, positions as the projector would leave them), not
 * traded. The engine knows none of those markets, so every read also prices 2,500 markets from
 * the trades table: the path of a node without the engine, the slower one. Each route is read
 * over HTTP on loopback (signed with HMAC where the route needs it) and p50/p99 printed, on PGlite
 * (in memory) and then on PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { hmacHeaders } from '../test/helpers/auth-client.ts';
import { createPublishedEvent } from '../test/helpers/catalogue.ts';
import { request } from '../test/helpers/http.ts';
import { startTestServer, type TestServer } from '../test/helpers/server.ts';
import { newTrader, type Trader } from '../test/helpers/trader.ts';

const MARKETS = 2_500;
const CLOSED = 1_000;
const TRADES = 100_000;
const HOURS = 24 * 365;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

async function seed(server: TestServer, user: Trader, other: Trader): Promise<void> {
  const db = server.ctx.store.db;
  const { markets: [template] } = await createPublishedEvent(server, { markets: 1 });
  const { rows: columns } = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'markets' AND table_schema = current_schema() ORDER BY ordinal_position`.execute(db);
  const generated: Record<string, string> = {
    id: 'gen_random_uuid()', slug: `'bench-' || g`, name: `'Bench market ' || g`, position: 'g',
    token_id1: `(10000000 + 2 * g)::text`, token_id2: `(10000001 + 2 * g)::text`,
    condition_id: `'0x' || md5('c' || g) || md5('d' || g)`, question_id: `'0x' || md5('q' || g) || md5('r' || g)`,
  };
  const list = columns.map((c) => c.column_name);
  const select = list.map((c) => generated[c] ?? `t.${c}`);
  await sql.raw(`INSERT INTO markets (${list.join(', ')}) SELECT ${select.join(', ')} FROM markets t CROSS JOIN generate_series(1, ${MARKETS}) g WHERE t.id = '${template!.id}'`).execute(db);

  const wallet = user.proxyWallet.toLowerCase();
  const otherWallet = other.proxyWallet.toLowerCase();
  // Two tokens per market; the first CLOSED positions are closed (sold out at a profit or a loss).
  await sql`
    INSERT INTO positions (account, token_id, market_id, outcome_index, amount, cost_basis, realized_pnl, acquired_amount, acquired_cost, disposed_amount, disposed_proceeds, last_seq, updated_at)
    SELECT ${wallet}, CASE WHEN o = 0 THEN m.token_id1 ELSE m.token_id2 END, m.id, o,
      CASE WHEN n <= ${CLOSED} THEN 0 ELSE 10000000 END, CASE WHEN n <= ${CLOSED} THEN 0 ELSE 4000000 + n END,
      CASE WHEN n <= ${CLOSED} THEN (n % 7 - 3) * 100000 ELSE 0 END,
      10000000, 4000000 + n, CASE WHEN n <= ${CLOSED} THEN 10000000 ELSE 0 END, CASE WHEN n <= ${CLOSED} THEN 4000000 + (n % 7 - 3) * 100000 ELSE 0 END,
      n, now() - n * interval '1 minute'
    FROM (SELECT id, token_id1, token_id2, row_number() OVER (ORDER BY position) AS rn FROM markets WHERE slug LIKE 'bench-%') m
    CROSS JOIN generate_series(0, 1) o
    CROSS JOIN LATERAL (SELECT (m.rn - 1) * 2 + o + 1 AS n) k`.execute(db);
  await sql`
    INSERT INTO trades (id, seq, market_id, kind, status, token_id, side, price_micros, maker_token_id, maker_side, maker_price_micros, size_base_units, notional_base_units, taker_order_id, maker_order_id,
      taker_user_id, maker_user_id, taker_wallet, maker_wallet, taker_fee_base_units, maker_fee_base_units, tx_hash, matched_at, mined_at, confirmed_at)
    SELECT gen_random_uuid(), 1000000 + g, m.id, 'TRANSFER', 'CONFIRMED', m.token_id1, g % 2, 100000 + (g % 80) * 10000, m.token_id1, 1 - g % 2, 100000 + (g % 80) * 10000, 1000000, (100000 + (g % 80) * 10000),
      gen_random_uuid(), gen_random_uuid(),
      CASE WHEN g % 2 = 0 THEN ${user.userId}::uuid ELSE ${other.userId}::uuid END, CASE WHEN g % 2 = 0 THEN ${other.userId}::uuid ELSE ${user.userId}::uuid END,
      CASE WHEN g % 2 = 0 THEN ${wallet} ELSE ${otherWallet} END, CASE WHEN g % 2 = 0 THEN ${otherWallet} ELSE ${wallet} END,
      0, 0, '0x' || md5('t' || g) || md5('u' || g), now() - g * interval '10 seconds', now() - g * interval '10 seconds', now() - g * interval '10 seconds'
    FROM generate_series(1, ${TRADES}) g
    JOIN (SELECT id, token_id1, row_number() OVER (ORDER BY position) - 1 AS k FROM markets WHERE slug LIKE 'bench-%') m ON m.k = g % ${MARKETS}`.execute(db);
  await sql`
    INSERT INTO pnl_series (account, hour, realized_pnl)
    SELECT ${wallet}, date_trunc('hour', now()) - h * interval '1 hour', (h % 11 - 5) * 10000 FROM generate_series(0, ${HOURS - 1}) h`.execute(db);
  await sql`ANALYZE`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(server: TestServer, user: Trader, label: string): Promise<void> {
  let lastTs = 0;
  const signed = (path: string) => {
    lastTs = Math.max(Date.now(), lastTs + 1);
    return hmacHeaders(user.creds, 'GET', `/api/v1${path.split('?')[0]}`, '', { timestampMs: lastTs });
  };
  const name = 'bench_whale';
  const reads: Array<[string, string, boolean]> = [
    ['user-positions (default page)', '/markets/user-positions', true],
    ['user-positions sortBy=current, page 50', '/markets/user-positions?sortBy=current&page=50&limit=50', true],
    ['user-positions title filter', '/markets/user-positions?title=market%2012', true],
    ['value', '/markets/value', true],
    ['profile summary', `/profiles/by-name/${name}/summary`, false],
    ['profile pnl-history 1D', `/profiles/by-name/${name}/pnl-history?range=1D`, false],
    ['profile pnl-history ALL', `/profiles/by-name/${name}/pnl-history?range=ALL`, false],
    ['profile positions active', `/profiles/by-name/${name}/positions?status=active`, false],
    ['profile positions closed', `/profiles/by-name/${name}/positions?status=closed`, false],
    ['profile activity', `/profiles/by-name/${name}/activity`, false],
  ];
  console.log(`\n${label}: ${MARKETS * 2} positions (${CLOSED} closed), ${TRADES} trade rows, ${HOURS} P&L hours; ${RUNS} reads each`);
  for (const [what, path, auth] of reads) {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const started = performance.now();
      const response = await request('GET', server.api(path), auth ? { headers: signed(path) } : {});
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
      if (i >= 3) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${what.padEnd(40)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms`);
  }
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const previous = process.env.DATABASE_URL;
  if (env.DATABASE_URL) process.env.DATABASE_URL = env.DATABASE_URL;
  else delete process.env.DATABASE_URL;
  const server = await startTestServer({ CLOCK: 'real', LOG_LEVEL: 'silent', RATE_LIMIT_REQUESTS: 'off', RATE_LIMIT_PUBLIC: 'off' });
  try {
    const [user, other] = await Promise.all([newTrader(server), newTrader(server)]);
    const named = await user.call('PATCH', '/account', { displayName: 'bench_whale' });
    if (named.status !== 200) throw new Error(`display name: ${named.status}`);
    const started = performance.now();
    await seed(server, user, other);
    console.log(`\n${label}: seeded with SQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await measure(server, user, label);
  } finally {
    await server.close();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

await run('PGlite (memory)', {});
const postgres = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (postgres) await run('PostgreSQL', { DATABASE_URL: postgres });
else console.log('\nPostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL)');
