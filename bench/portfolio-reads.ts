/**
 * The merge and user-activity routes over HTTP with a heavy user: `npm run bench -- portfolio-reads`.
 * An in-process server (PGlite in memory, or a scratch PostgreSQL database when DATABASE_URL is
 * set) holds 500 markets, 200,000 trades (100,000 of them the heavy user's, as taker or maker; the
 * rest between two other users), and the heavy user's splits and merges in every market. Each read
 * runs sequentially with a fresh HMAC per request; p50 and p99 in milliseconds.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { createPublishedEvent, type PublishedMarket } from '../test/helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../test/helpers/server.ts';
import { newTrader, type Trader } from '../test/helpers/trader.ts';

const EVENTS = 10;
const MARKETS_PER_EVENT = 50;
const USER_TRADES = 100_000;
const NOISE_TRADES = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
/** Steps each request's HMAC timestamp back a millisecond, so no two share a signature. */
let nextStamp = 0;

const server: TestServer = await startTestServer({ LOG_LEVEL: 'error', RATE_LIMIT_REQUESTS: 'off', RATE_LIMIT_PUBLIC: 'off' });
try {
  const store = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const [heavy, other, noiseA, noiseB] = await Promise.all([1, 2, 3, 4].map(() => newTrader(server, { fund: '1000000' })));
  const events = [];
  for (let i = 0; i < EVENTS; i++) events.push(await createPublishedEvent(server, { markets: MARKETS_PER_EVENT }));
  const markets = events.flatMap((e) => e.markets);
  const started = Date.now();
  await insertTrades(markets, heavy!, other!, USER_TRADES, 0);
  await insertTrades(markets, noiseA!, noiseB!, NOISE_TRADES, USER_TRADES);
  // A split, a merge of it and another split per market: 1,500 ledger rows, and both outcomes left to merge.
  const { engine } = server.ctx.trading;
  const account = heavy!.proxyWallet.toLowerCase();
  for (const m of markets) {
    await engine.split({ account, marketId: m.id, amount: 3_000_000n });
    await engine.merge({ account, marketIds: [m.id] });
    await engine.split({ account, marketId: m.id, amount: 2_000_000n });
  }
  console.log(`${store}: seeded ${markets.length} markets, ${USER_TRADES + NOISE_TRADES} trades and ${markets.length * 3} splits/merges in ${Date.now() - started} ms`);

  const term = encodeURIComponent(events[3]!.event.name.slice(-6));
  const windowEnd = Math.floor(server.ctx.clock.nowMs() / 1000) - 50_000;
  const reads: Array<[string, string]> = [
    ['user-activity (defaults, total)', '/markets/user-activity'],
    ['user-activity total=false', '/markets/user-activity?total=false'],
    ['user-activity types=SPLIT,MERGE', '/markets/user-activity?types=SPLIT,MERGE'],
    ['user-activity term (1 event of 10)', `/markets/user-activity?term=${term}`],
    ['user-activity page 100 of 50', '/markets/user-activity?page=100&limit=50&total=false'],
    ['user-activity 1-hour window', `/markets/user-activity?fromTimestamp=${windowEnd - 3600}&toTimestamp=${windowEnd}`],
    ['user-activity sortBy=amount', '/markets/user-activity?sortBy=amount&total=false'],
    ['traded-count', '/markets/traded-count'],
    ['mergeable-positions (500)', '/markets/mergeable-positions'],
  ];
  for (const [name, path] of reads) report(name, await measure(heavy!, 'GET', path));

  // Batch merge of 50 markets, one ledger transaction each time; splits again between runs (not timed).
  const batch = markets.slice(0, 50);
  const merges: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 20); i++) {
    merges.push(...await measure(heavy!, 'POST', '/markets/merge-positions/batch', { marketIds: batch.map((m) => m.id) }, 1));
    for (const m of batch) await engine.split({ account, marketId: m.id, amount: 1_000_000n });
  }
  report('merge-positions/batch (50 markets)', merges);
} finally {
  await server.close();
}

/** Trades of 10 tokens at 0.5, one a second going back from now, alternately taker and maker. */
async function insertTrades(markets: PublishedMarket[], a: Trader, b: Trader, count: number, seqBase: number): Promise<void> {
  const nowMs = server.ctx.clock.nowMs();
  await sql`
    INSERT INTO trades (id, seq, market_id, kind, status, token_id, side, price_micros, maker_token_id, maker_side, maker_price_micros, size_base_units, notional_base_units,
      taker_order_id, maker_order_id, taker_user_id, maker_user_id, taker_wallet, maker_wallet, taker_fee_base_units, maker_fee_base_units,
      tx_hash, matched_at, mined_at, confirmed_at)
    SELECT gen_random_uuid(), ${seqBase} + g, m.id, 'TRANSFER', 'CONFIRMED', m.token, g % 2, 500000, m.token, 1 - g % 2, 500000, 10000000, 5000000,
      gen_random_uuid(), gen_random_uuid(),
      CASE WHEN g % 2 = 0 THEN ${a.userId}::uuid ELSE ${b.userId}::uuid END, CASE WHEN g % 2 = 0 THEN ${b.userId}::uuid ELSE ${a.userId}::uuid END,
      CASE WHEN g % 2 = 0 THEN ${a.proxyWallet.toLowerCase()} ELSE ${b.proxyWallet.toLowerCase()} END,
      CASE WHEN g % 2 = 0 THEN ${b.proxyWallet.toLowerCase()} ELSE ${a.proxyWallet.toLowerCase()} END,
      0, 0, '0x' || md5(g::text || ${seqBase}::text) || md5(g::text), t.at, t.at, t.at
    FROM generate_series(1, ${count}::int) g
    JOIN unnest(${markets.map((m) => m.id)}::uuid[], ${markets.map((m) => m.tokenId1)}::text[]) WITH ORDINALITY AS m(id, token, ord) ON m.ord = g % ${markets.length}::int + 1
    CROSS JOIN LATERAL (SELECT to_timestamp(${nowMs / 1000}::double precision) - g * interval '1 second' AS at) t`.execute(server.ctx.store.db);
}

/** Sequential timed requests, each with its own HMAC timestamp (the manual clock stands still). */
async function measure(trader: Trader, method: string, path: string, body?: unknown, runs = RUNS): Promise<number[]> {
  const times: number[] = [];
  const text = body === undefined ? '' : JSON.stringify(body);
  for (let i = 0; i < runs; i++) {
    const timestamp = String(server.ctx.clock.nowMs() - (nextStamp++ % 20_000));
    const signature = createHmac('sha256', trader.creds.secret).update(`${timestamp}${method}/api/v1${path.split('?')[0]}${text}`).digest('hex');
    const headers: Record<string, string> = { 'svc-api-key': trader.creds.apiKey, 'svc-signature': signature, 'svc-timestamp': timestamp, 'svc-passphrase': trader.creds.passphrase };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const start = performance.now();
    const response = await fetch(server.api(path), { method, headers, ...(body === undefined ? {} : { body: text }) });
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  }
  return times;
}

function report(name: string, times: number[]): void {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(`${name.padEnd(40)} p50 ${at(0.5).padStart(7)} ms   p99 ${at(0.99).padStart(7)} ms   (${times.length} runs)`);
}
