/**
 * Order-book throughput, ours against the reference package `nodejs-order-book`, in one run on
 * one random workload: `npm run bench -- book` (BENCH_OPS, BENCH_ROUNDS to size it).
 *
 * Each workload is generated once from a seeded generator in book terms (bid or ask, price in
 * millionths, size in whole tokens): mostly GTC limit orders around a drifting mid (some crossing),
 * cancels, and aggressive immediate-or-cancel orders that sweep a few levels. Two cancel habits:
 * `deep` cancels any earlier order (often gone already), so tens of thousands of orders pile up
 * in long queues; `churn` cancels one of the last 50 orders, as a quoting market maker does, so
 * the book stays shallow. Ours gets each order as outcome 0 or its outcome-1 equivalent at
 * random, so the mirror path is exercised; the reference gets the plain side and price. Both must
 * end with the same depth (checked), so the two did the same work.
 */
import { OrderBook, Side } from 'nodejs-order-book';
import { MarketBook } from '../src/core/book/market-book.ts';
import type { IncomingOrder } from '../src/core/book/types.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

const OPS = Number(process.env.BENCH_OPS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOKEN = 1_000_000n;
const TICK = 10_000;

type Op =
  | { kind: 'place'; id: string; bid: boolean; price: number; tokens: number; ioc: boolean; outcome: 0 | 1 }
  | { kind: 'cancel'; id: string };

type CancelHabit = 'deep' | 'churn';

function workload(count: number, habit: CancelHabit): Op[] {
  const random = seededRandom(42);
  const ops: Op[] = [];
  let mid = 50;
  for (let i = 0; i < count; i++) {
    const r = random();
    mid = Math.min(80, Math.max(20, mid + (random() < 0.5 ? -1 : 1) * (random() < 0.1 ? 1 : 0)));
    if (r < 0.3 && i > 0) {
      const back = habit === 'deep' ? Math.floor(random() * i) + 1 : 1 + Math.floor(random() * Math.min(i, 50));
      ops.push({ kind: 'cancel', id: `o${i - back}` });
      continue;
    }
    const bid = random() < 0.5;
    const ioc = r > 0.9;
    // Passive orders sit 0 to 9 ticks behind the mid; one in ten crosses by up to 2 ticks; IOCs reach 5 ticks through.
    const offset = ioc ? -5 : random() < 0.1 ? -Math.floor(random() * 3) : Math.floor(random() * 10);
    const ticks = Math.min(99, Math.max(1, bid ? mid - offset : mid + offset));
    ops.push({ kind: 'place', id: `o${i}`, bid, price: ticks * TICK, tokens: 1 + Math.floor(random() * 20), ioc, outcome: random() < 0.5 ? 0 : 1 });
  }
  return ops;
}

function toIncoming(op: Extract<Op, { kind: 'place' }>): IncomingOrder {
  // A bid at p is BUY outcome 0 at p or SELL outcome 1 at 1 − p; an ask at p is SELL outcome 0 at p or BUY outcome 1 at 1 − p.
  const side = (op.bid === (op.outcome === 0)) ? 'BUY' : 'SELL';
  return {
    id: op.id,
    ownerId: op.id,
    outcome: op.outcome,
    side,
    priceMicros: op.outcome === 0 ? op.price : 1_000_000 - op.price,
    sizeBaseUnits: BigInt(op.tokens) * TOKEN,
    type: op.ioc ? 'FAK' : 'GTC',
    postOnly: false,
    expirationSec: 0,
    takerFeeBps: 100,
    makerFeeBps: 0,
  };
}

function runOurs(ops: Op[], incoming: (IncomingOrder | undefined)[]): { ms: number; depth: string; fills: number; resting: number } {
  const book = new MarketBook();
  let fills = 0;
  const start = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.kind === 'cancel') book.cancel(op.id);
    else fills += book.submit(incoming[i]!, 0).fills.length;
  }
  const ms = performance.now() - start;
  const { bids, asks } = book.levels(0);
  const side = (levels: typeof bids) => levels.map((l) => `${l.priceMicros}:${l.sizeBaseUnits / TOKEN}`).join(',');
  const resting = [...bids, ...asks].reduce((n, l) => n + l.orderCount, 0);
  return { ms, depth: `${side(asks)}|${side(bids)}`, fills, resting };
}

function runReference(ops: Op[]): { ms: number; depth: string } {
  const book = new OrderBook();
  const start = performance.now();
  for (const op of ops) {
    if (op.kind === 'cancel') book.cancel(op.id);
    else book.limit({ id: op.id, side: op.bid ? Side.BUY : Side.SELL, size: op.tokens, price: op.price, timeInForce: (op.ioc ? 'IOC' : 'GTC') as never });
  }
  const ms = performance.now() - start;
  const [asks, bids] = book.depth();
  // The reference lists asks worst first; ours best first.
  const side = (levels: [number, number][]) => levels.map(([p, s]) => `${p}:${s}`).join(',');
  return { ms, depth: `${side([...asks].sort((a, b) => a[0] - b[0]))}|${side([...bids].sort((a, b) => b[0] - a[0]))}` };
}

function measure(habit: CancelHabit): void {
  const ops = workload(OPS, habit);
  const incoming = ops.map((op) => (op.kind === 'place' ? toIncoming(op) : undefined));
  const count = (test: (op: Op) => boolean) => ops.filter(test).length.toLocaleString('en-US');
  console.log(`\n${habit}: ${count((o) => o.kind === 'place' && !o.ioc)} GTC, ${count((o) => o.kind === 'place' && o.ioc)} IOC/FAK, ${count((o) => o.kind === 'cancel')} cancels`);
  let best = { ours: Infinity, reference: Infinity };
  let shape = '';
  for (let round = 0; round < ROUNDS; round++) {
    const ours = runOurs(ops, incoming);
    const reference = runReference(ops);
    if (ours.depth !== reference.depth) throw new Error(`${habit}: the two books ended with different depth: the workloads diverged`);
    shape = `${ours.fills.toLocaleString('en-US')} fills, ${ours.resting.toLocaleString('en-US')} orders resting at the end`;
    best = { ours: Math.min(best.ours, ours.ms), reference: Math.min(best.reference, reference.ms) };
  }
  const rate = (ms: number) => Math.round((OPS * 1000) / ms);
  console.log(`  ${'MarketBook (ours, bigint sizes, two outcomes)'.padEnd(48)} ${rate(best.ours).toLocaleString('en-US').padStart(12)} ops/s`);
  console.log(`  ${'nodejs-order-book (reference, number sizes)'.padEnd(48)} ${rate(best.reference).toLocaleString('en-US').padStart(12)} ops/s`);
  console.log(`  ours is ${(best.reference / best.ours).toFixed(2)}x the reference; ${shape}; final depth identical`);
}

console.log(`order book: ${OPS.toLocaleString('en-US')} ops per workload, best of ${ROUNDS} interleaved rounds`);
measure('deep');
measure('churn');
