/**
 * Reward sampling cost: `npm run bench -- rewards` (BENCH_MARKETS, BENCH_MAKERS, BENCH_PASSES to
 * size it; DATABASE_URL to run on PostgreSQL instead of in-memory PGlite).
 *
 * 1,000 rewarded markets with 50 makers each, every maker quoting both sides at its own distance
 * from the midpoint. One sample pass is what the job does each minute: read the open
 * configurations, score every market's book, split the minute's budget and add the makers'
 * accruals in one transaction. Then a catch-up pass over a whole day at once (a clock jump), and
 * the daily close that turns the day into payout rows.
 */
import { randomUUID } from 'node:crypto';
import type { RestingQuote } from '../src/core/rewards/index.ts';
import { DAY_MS, MINUTE_MS } from '../src/core/rewards/index.ts';
import { closeEndedDays } from '../src/rewards/daily-close.ts';
import { AccrualBuffer, sampleRewards } from '../src/rewards/sampler.ts';
import { insertEvent } from '../src/store/catalogue-events-repository.ts';
import { insertMarkets } from '../src/store/catalogue-markets-repository.ts';
import { listOpenRewardConfigs, upsertRewardConfig } from '../src/store/rewards-repository.ts';
import { openTestStore } from '../test/helpers/database.ts';

const MARKETS = Number(process.env.BENCH_MARKETS ?? 1000);
const MAKERS = Number(process.env.BENCH_MAKERS ?? 50);
const PASSES = Number(process.env.BENCH_PASSES ?? 30);

const store = await openTestStore();
const db = store.db;
const dayStartMs = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const date = new Date(dayStartMs).toISOString().slice(0, 10);
const now = new Date();
const operator = randomUUID();
const eventId = randomUUID();
await insertEvent(db, {
  id: eventId, slug: `bench-${eventId}`, name: 'Bench', description: '', icon: '', status: 'ACTIVE', start_date: now, end_date: null,
  protected: false, single: false, neg_risk: false, series_layout: false, fee_bips: null, winning_market_id: null, reward_base_units: 0n,
  proposal_bond_base_units: 0n, liveness_seconds: 7200, order_fee_rate_bps: 0, passive_order_fee_rate_bps: 0, ancillary_data: '', metadata: null,
  created_by: operator, created_at: now, updated_at: now,
});
const marketIds = Array.from({ length: MARKETS }, () => randomUUID());
for (let i = 0; i < MARKETS; i += 500) {
  await insertMarkets(db, marketIds.slice(i, i + 500).map((id, j) => ({
    id, event_id: eventId, position: i + j, slug: `bench-${id}`, name: `Market ${i + j}`, description: null, icon: '', status: 'ACTIVE' as const,
    start_date: null, end_date: null, neg_risk: false, tick_size: '0.01', order_fee_rate_bps: 0, passive_order_fee_rate_bps: 0, outcome1: 'Yes', outcome2: 'No',
    condition_id: `0x${id.replaceAll('-', '')}`, question_id: null, token_id1: String(2 * (i + j) + 1), token_id2: String(2 * (i + j) + 2), ancillary_data: '',
    proposed_at: null, proposed_price: null, display_timezone: null, question_index: null, created_by: operator, created_at: now, updated_at: now,
  })));
}
for (const id of marketIds) {
  await upsertRewardConfig(db, {
    market_id: id, reward_date: date, reward_base_units: 100_000_000n, start_at: null, end_at: null, max_distance_micros: 50_000,
    extreme_max_distance_micros: 50_000, min_order_size_base_units: 1_000_000n, boost_windows: '[]', enabled: true, created_at: now, updated_at: now,
  });
}
// Every maker bids and asks around 0.50, 1 to 4 cents away, 10 to 500 tokens.
const makers = Array.from({ length: MAKERS }, () => randomUUID());
const quotes = new Map<string, RestingQuote[]>(marketIds.map((marketId, m) => [marketId, makers.flatMap((makerId, k) => {
  const cents = 1 + ((m + k) % 4);
  const size = BigInt(10 + ((m * 7 + k * 13) % 491)) * 1_000_000n;
  return [
    { orderId: `${m}-${k}-b`, makerId, outcome: 0 as const, side: 'BUY' as const, priceMicros: 500_000 - cents * 10_000, remainingBaseUnits: size },
    { orderId: `${m}-${k}-a`, makerId, outcome: 1 as const, side: 'BUY' as const, priceMicros: 500_000 - cents * 10_000, remainingBaseUnits: size },
  ];
})]));

const timed = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const buffer = new AccrualBuffer();
/** What the job does each minute: read the configurations, score, split, buffer; `write` stores too. */
const tick = async (nowMs: number, write: boolean) => {
  buffer.add(sampleRewards({ configs: buffer.overlay(await listOpenRewardConfigs(db)), quotesByMarket: quotes, paused: false, nowMs }), nowMs);
  if (write) await buffer.flush(db);
};

const passes: number[] = [];
const writes: number[] = [];
for (let i = 0; i < PASSES; i++) {
  passes.push(await timed(() => tick(dayStartMs + i * MINUTE_MS, false)));
  // Every fifth minute the buffer is written, as the real-clock job does (ACCRUAL_FLUSH_MS).
  if (i % 5 === 4) writes.push(await timed(() => buffer.flush(db)));
}
console.log(`${MARKETS} markets × ${MAKERS} makers (${MARKETS * MAKERS * 2} resting orders), ${store.kind}`);
console.log(`one sample pass (read configs, score, split, buffer): p50 ${percentile(passes, 50).toFixed(1)} ms, p99 ${percentile(passes, 99).toFixed(1)} ms over ${PASSES} passes`);
console.log(`writing 5 buffered minutes (${MARKETS * MAKERS} accrual upserts): p50 ${percentile(writes, 50).toFixed(0)} ms, p99 ${percentile(writes, 99).toFixed(0)} ms over ${writes.length} writes`);
const catchUp = await timed(() => tick(dayStartMs + DAY_MS - MINUTE_MS, true));
console.log(`catch-up pass over the remaining ${1440 - PASSES} minutes of the day at once: ${catchUp.toFixed(1)} ms`);
const configs = await listOpenRewardConfigs(db);
const close = await timed(() => closeEndedDays(db, configs, dayStartMs + DAY_MS, 1_000_000n));
const rows = await db.selectFrom('reward_payouts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
console.log(`daily close: ${close.toFixed(0)} ms for ${MARKETS} market-days, ${rows.n} payout rows`);
await store.close();
