import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { MarketBook } from '../../src/core/book/market-book.ts';
import type { BookLevel, BookLevels, Fill, IncomingOrder, SubmitResult } from '../../src/core/book/types.ts';

/**
 * Random order streams against a naive reference model: a flat list of resting orders in arrival
 * order, re-sorted on every submit. Every answer of the real book, and its whole resting set,
 * must equal the model's; the book must never be left crossed, and token 1's view must mirror
 * token 0's.
 */

const SCALE = 1_000_000;
const START = 1_764_000_000;

interface ModelOrder {
  order: IncomingOrder;
  bid: boolean;
  bookPrice: number;
  remaining: bigint;
  seq: number;
}

const isBid = (o: IncomingOrder) => (o.side === 'BUY') === (o.outcome === 0);
const bookPrice = (o: IncomingOrder) => (o.outcome === 0 ? o.priceMicros : SCALE - o.priceMicros);
const expired = (o: IncomingOrder, now: number) => o.expirationSec > 0 && o.expirationSec <= now;

class NaiveBook {
  resting: ModelOrder[] = [];
  private seq = 0;

  submit(order: IncomingOrder, now: number): SubmitResult {
    const bid = isBid(order);
    const limit = bookPrice(order);
    const crossing = this.resting
      .filter((r) => r.bid !== bid && (bid ? r.bookPrice <= limit : r.bookPrice >= limit))
      .sort((a, b) => (bid ? a.bookPrice - b.bookPrice : b.bookPrice - a.bookPrice) || a.seq - b.seq);
    const result: SubmitResult = { fills: [], status: 'PENDING', rested: false, expired: [], cancelledOwn: [] };
    if (order.postOnly) {
      if (crossing.some((r) => !expired(r.order, now))) return { ...result, status: 'REJECTED', rejectReason: 'POST_ONLY_WOULD_CROSS' };
      for (const r of crossing) this.drop(r, result.expired);
      this.rest(order, order.sizeBaseUnits);
      return { ...result, rested: true };
    }
    const available = crossing.filter((r) => !expired(r.order, now) && r.order.ownerId !== order.ownerId).reduce((s, r) => s + r.remaining, 0n);
    if (order.type === 'FOK' && available < order.sizeBaseUnits) return { ...result, status: 'CANCELLED' };
    let remaining = order.sizeBaseUnits;
    for (const r of crossing) {
      if (remaining === 0n) break;
      if (expired(r.order, now)) this.drop(r, result.expired);
      else if (r.order.ownerId === order.ownerId) this.drop(r, result.cancelledOwn);
      else {
        const size = r.remaining < remaining ? r.remaining : remaining;
        result.fills.push(modelFill(order, r, size));
        remaining -= size;
        r.remaining -= size;
        if (r.remaining === 0n) this.drop(r, []);
      }
    }
    if (remaining === 0n) return { ...result, status: 'EXECUTED' };
    if (order.type !== 'GTC') return { ...result, status: 'CANCELLED' };
    this.rest(order, remaining);
    return { ...result, status: result.fills.length === 0 ? 'PENDING' : 'EXECUTING', rested: true };
  }

  cancel(id: string): boolean {
    const r = this.resting.find((x) => x.order.id === id);
    if (r) this.drop(r, []);
    return r !== undefined;
  }

  expireUntil(now: number): { id: string }[] {
    const due = this.resting.filter((r) => expired(r.order, now)).sort((a, b) => a.order.expirationSec - b.order.expirationSec || a.seq - b.seq);
    const out: { id: string }[] = [];
    for (const r of due) this.drop(r, out);
    return out;
  }

  levels(): BookLevels {
    const side = (bid: boolean): BookLevel[] => {
      const byPrice = new Map<number, BookLevel>();
      for (const r of this.resting.filter((x) => x.bid === bid)) {
        const level = byPrice.get(r.bookPrice) ?? { priceMicros: r.bookPrice, sizeBaseUnits: 0n, orderCount: 0 };
        level.sizeBaseUnits += r.remaining;
        level.orderCount += 1;
        byPrice.set(r.bookPrice, level);
      }
      return [...byPrice.values()].sort((a, b) => (bid ? b.priceMicros - a.priceMicros : a.priceMicros - b.priceMicros));
    };
    return { bids: side(true), asks: side(false) };
  }

  private rest(order: IncomingOrder, remaining: bigint): void {
    this.resting.push({ order, bid: isBid(order), bookPrice: bookPrice(order), remaining, seq: this.seq++ });
  }

  private drop(r: ModelOrder, into: { id: string }[]): void {
    this.resting = this.resting.filter((x) => x !== r);
    into.push({ id: r.order.id });
  }
}

function modelFill(taker: IncomingOrder, maker: ModelOrder, size: bigint): Fill {
  const takerPrice = taker.outcome === 0 ? maker.bookPrice : SCALE - maker.bookPrice;
  const kind = taker.outcome === maker.order.outcome ? 'TRANSFER' : taker.side === 'BUY' ? 'MINT' : 'MERGE';
  const party = (o: IncomingOrder, price: number, bps: number) => ({ orderId: o.id, ownerId: o.ownerId, outcome: o.outcome, side: o.side, priceMicros: price, feeBaseUnits: feeBaseUnits(bps, price, size) });
  return { kind, sizeBaseUnits: size, maker: party(maker.order, maker.order.priceMicros, maker.order.makerFeeBps), taker: party(taker, takerPrice, taker.takerFeeBps) };
}

type Action =
  | { kind: 'submit'; outcome: 0 | 1; side: 'BUY' | 'SELL'; priceTicks: number; steps: number; owner: number; type: 'GTC' | 'FOK' | 'FAK'; postOnly: boolean; expiresIn: number; takerFeeBps: number; makerFeeBps: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'expire' };

const submitAction = fc.record({
  kind: fc.constant('submit' as const),
  outcome: fc.constantFrom(0 as const, 1 as const),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  priceTicks: fc.integer({ min: 40, max: 60 }),
  steps: fc.integer({ min: 1, max: 400 }),
  owner: fc.integer({ min: 0, max: 3 }),
  type: fc.constantFrom('GTC' as const, 'GTC' as const, 'GTC' as const, 'FOK' as const, 'FAK' as const),
  postOnly: fc.boolean(),
  expiresIn: fc.constantFrom(0, 0, 1, 2, 5),
  takerFeeBps: fc.constantFrom(0, 10, 200),
  makerFeeBps: fc.constantFrom(0, 5),
});
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: submitAction, weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const) }), weight: 1 },
);

function toOrder(a: Extract<Action, { kind: 'submit' }>, index: number, now: number): IncomingOrder {
  return {
    id: `o${index}`,
    ownerId: `u${a.owner}`,
    outcome: a.outcome,
    side: a.side,
    priceMicros: a.priceTicks * 10_000,
    // On a 0.01 tick any multiple of 100 base units is on the grid; larger steps give fees that do not all round to 0.
    sizeBaseUnits: BigInt(a.steps) * 10_000n,
    type: a.type,
    postOnly: a.postOnly && a.type === 'GTC',
    expirationSec: a.expiresIn === 0 ? 0 : now + a.expiresIn,
    takerFeeBps: a.takerFeeBps,
    makerFeeBps: a.makerFeeBps,
  };
}

function assertFillConserves(fill: Fill): void {
  assert.ok(fill.sizeBaseUnits > 0n);
  const makerCost = BigInt(fill.maker.priceMicros) * fill.sizeBaseUnits;
  const takerCost = BigInt(fill.taker.priceMicros) * fill.sizeBaseUnits;
  assert.equal(makerCost % 1_000_000n, 0n);
  if (fill.kind === 'TRANSFER') {
    assert.equal(fill.maker.priceMicros, fill.taker.priceMicros);
    assert.notEqual(fill.maker.side, fill.taker.side);
  } else {
    // A mint turns the two buyers' collateral into exactly one complete set per token; a merge the reverse.
    assert.equal((makerCost + takerCost) / 1_000_000n, fill.sizeBaseUnits);
    assert.equal(fill.maker.side, fill.kind === 'MINT' ? 'BUY' : 'SELL');
    assert.equal(fill.taker.side, fill.maker.side);
  }
}

function assertBookShape(book: MarketBook): void {
  const zero = book.levels(0);
  const one = book.levels(1);
  const bestBid = zero.bids[0]?.priceMicros ?? 0;
  const bestAsk = zero.asks[0]?.priceMicros ?? SCALE;
  assert.ok(bestBid < bestAsk, `crossed book: bid ${bestBid} ≥ ask ${bestAsk}`);
  const mirror = (levels: BookLevel[]) => levels.map((l) => ({ ...l, priceMicros: SCALE - l.priceMicros }));
  assert.deepEqual(one, { bids: mirror(zero.asks), asks: mirror(zero.bids) });
  for (const level of [...zero.bids, ...zero.asks]) assert.ok(level.sizeBaseUnits > 0n && level.orderCount > 0);
}

function run(actions: Action[]): void {
  const book = new MarketBook();
  const model = new NaiveBook();
  const ids: string[] = [];
  let now = START;
  actions.forEach((a, index) => {
    if (a.kind === 'submit') {
      const order = toOrder(a, index, now);
      ids.push(order.id);
      const got = book.submit(order, now);
      assert.deepEqual(got, model.submit(order, now));
      for (const fill of got.fills) assertFillConserves(fill);
      const filled = got.fills.reduce((s, f) => s + f.sizeBaseUnits, 0n);
      const resting = book.get(order.id)?.remainingBaseUnits ?? 0n;
      assert.ok(filled + resting <= order.sizeBaseUnits);
      if (got.status !== 'CANCELLED' && got.status !== 'REJECTED') assert.equal(filled + resting, order.sizeBaseUnits);
    } else if (a.kind === 'cancel' && ids.length > 0) {
      const id = ids[a.pick % ids.length]!;
      assert.equal(book.cancel(id), model.cancel(id));
    } else if (a.kind === 'advance') {
      now += a.seconds;
    } else if (a.kind === 'expire') {
      assert.deepEqual(book.expireUntil(now), model.expireUntil(now));
    }
    assertBookShape(book);
    assert.deepEqual(book.levels(0), model.levels());
    for (const r of model.resting) {
      const seen = book.get(r.order.id);
      assert.ok(seen && seen.remainingBaseUnits === r.remaining && r.remaining > 0n, `resting ${r.order.id} differs`);
    }
  });
  const restingIds = new Set(model.resting.map((r) => r.order.id));
  for (const id of ids) assert.equal(book.get(id) !== undefined, restingIds.has(id), `order ${id} resting in one book only`);
}

describe('MarketBook properties (fast-check, against a naive model)', () => {
  it('answers like the reference model, never crosses, mirrors, conserves every fill', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 1, maxLength: 120 }), run), { numRuns: 400 });
  });

  it('agrees with the model on long streams', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 300, maxLength: 600 }), run), { numRuns: 20 });
  });
});
