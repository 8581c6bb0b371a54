import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createManualClock } from '../../src/clock.ts';
import type { BookLevel, BookLevels } from '../../src/core/book/types.ts';
import { BookPublisher, type FrameTimer } from '../../src/engine/book-publisher.ts';
import { bookHash } from '../../src/engine/book-view.ts';
import type { MarketTradingInfo } from '../../src/engine/types.ts';
import { DomainEvents, type DomainEventMap } from '../../src/events/domain-events.ts';
import { applyLevelChange } from '../realtime/helpers.ts';

type Change = DomainEventMap['book-change'];

const FRAME_MS = 50;

/** Frames by hand: time moves only through `advance`, which runs what fell due, in order. */
class ManualFrames implements FrameTimer {
  private now = 1_000;
  private readonly due: { atMs: number; run(): void; cancelled: boolean }[] = [];

  nowMs(): number {
    return this.now;
  }

  schedule(run: () => void, delayMs: number): { cancel(): void } {
    const entry = { atMs: this.now + delayMs, run, cancelled: false };
    this.due.push(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /** Whether a frame waits to run. */
  get waiting(): boolean {
    return this.due.some((entry) => !entry.cancelled);
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (let next = this.nextDue(until); next; next = this.nextDue(until)) {
      this.due.splice(this.due.indexOf(next), 1);
      this.now = Math.max(this.now, next.atMs);
      if (!next.cancelled) next.run();
    }
    this.now = until;
  }

  private nextDue(until: number) {
    return this.due.filter((entry) => entry.atMs <= until).sort((a, b) => a.atMs - b.atMs)[0];
  }
}

/** A book as the engine holds it: levels per outcome, in micros and base units, that tests set directly. */
class FakeBook {
  bids = new Map<number, bigint>();
  asks = new Map<number, bigint>();

  /** Token 1's view is the mirror of token 0's, as in MarketBook. */
  levels(outcome: 0 | 1): BookLevels {
    const side = (levels: Map<number, bigint>, mirrored: boolean, descending: boolean): BookLevel[] =>
      [...levels]
        .map(([priceMicros, sizeBaseUnits]) => ({ priceMicros: mirrored ? 1_000_000 - priceMicros : priceMicros, sizeBaseUnits, orderCount: 1 }))
        .sort((a, b) => (descending ? b.priceMicros - a.priceMicros : a.priceMicros - b.priceMicros));
    return outcome === 0 ? { bids: side(this.bids, false, true), asks: side(this.asks, false, false) } : { bids: side(this.asks, true, true), asks: side(this.bids, true, false) };
  }

  set(side: 'bid' | 'ask', priceMicros: number, size: bigint): void {
    const levels = side === 'bid' ? this.bids : this.asks;
    if (size === 0n) levels.delete(priceMicros);
    else levels.set(priceMicros, size);
  }
}

const market = (id = 'm1'): MarketTradingInfo => ({
  id,
  eventId: 'e1',
  status: 'ACTIVE',
  isPaused: false,
  isResolved: false,
  negRisk: false,
  tokenId1: `${id}-yes`,
  tokenId2: `${id}-no`,
  conditionId: '0x',
  outcome1: 'Yes',
  outcome2: 'No',
  tickSize: '0.01',
  orderFeeRateBps: 0,
  passiveOrderFeeRateBps: 0,
  speedBumpDelayMs: 0,
});

function setup(frameMs = FRAME_MS) {
  const events = new DomainEvents();
  const frames = new ManualFrames();
  const clock = createManualClock(1_700_000_000_000);
  const publisher = new BookPublisher({ events, clock, frameMs, timer: frames });
  const changes: Change[] = [];
  const snapshots: DomainEventMap['book-snapshot'][] = [];
  events.subscribe('book-change', (change) => changes.push(change));
  events.subscribe('book-snapshot', (snapshot) => snapshots.push(snapshot));
  const info = market();
  const book = new FakeBook();
  publisher.load(info, book);
  return { publisher, frames, clock, changes, snapshots, info, book };
}

/** A subscriber's book: a snapshot, then every change in seq order. */
class Subscriber {
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();
  seq: number;
  hash: string;

  constructor(snapshot: { seq: number; hash: string; bids: { price: string; size: string }[]; asks: { price: string; size: string }[] }) {
    this.seq = snapshot.seq;
    this.hash = snapshot.hash;
    for (const level of snapshot.bids) this.bids.set(level.price, level.size);
    for (const level of snapshot.asks) this.asks.set(level.price, level.size);
  }

  apply(change: Change): void {
    assert.equal(change.seq, this.seq + 1, 'seq is contiguous');
    for (const level of change.changes) applyLevelChange(level.side === 'buy' ? this.bids : this.asks, level);
    this.seq = change.seq;
    this.hash = change.hash;
    assert.equal(this.hash, bookHash(change.marketId, change.assetId, this.levels(this.bids, true), this.levels(this.asks, false)), 'the hash is that of the book after the change');
  }

  private levels(side: Map<string, string>, descending: boolean) {
    return [...side].sort(([a], [b]) => (descending ? Number(b) - Number(a) : Number(a) - Number(b))).map(([price, size]) => ({ price, size }));
  }
}

describe('BookPublisher: book changes in frames', () => {
  it('publishes the first change after a quiet time at once, and what follows within the frame as one net change', () => {
    const { publisher, frames, changes, info, book } = setup();
    book.set('bid', 400_000, 1_000_000n);
    publisher.committed(info, book, 1);
    assert.equal(changes.length, 0, 'not inside the committing call');
    frames.advance(0);
    assert.deepEqual(changes.map((c) => [c.assetId, c.seq, c.changes]), [
      ['m1-yes', 1, [{ price: '0.4', side: 'buy', size: '1' }]],
      ['m1-no', 1, [{ price: '0.6', side: 'sell', size: '1' }]],
    ]);

    // Three batches within the next frame: a level added and removed, one raised twice.
    book.set('bid', 300_000, 2_000_000n);
    publisher.committed(info, book, 2);
    book.set('bid', 300_000, 0n);
    book.set('bid', 400_000, 3_000_000n);
    publisher.committed(info, book, 3);
    book.set('bid', 400_000, 5_000_000n);
    publisher.committed(info, book, 4);
    frames.advance(FRAME_MS - 1);
    assert.equal(changes.length, 2, 'no second frame within frameMs of the first');
    frames.advance(1);
    assert.deepEqual(changes.slice(2).map((c) => [c.assetId, c.seq, c.timestampMs, c.changes]), [
      ['m1-yes', 2, 4, [{ price: '0.4', side: 'buy', size: '5' }]],
      ['m1-no', 2, 4, [{ price: '0.6', side: 'sell', size: '5' }]],
    ]);
    assert.equal(publisher.snapshot(info.id, 0)!.hash, changes[2]!.hash);
  });

  it('a snapshot asked while a change waits for its frame publishes the change first, and shows it', () => {
    const { publisher, frames, changes, info, book } = setup();
    book.set('bid', 400_000, 1_000_000n);
    publisher.committed(info, book, 1);
    frames.advance(0);
    book.set('bid', 450_000, 2_000_000n);
    publisher.committed(info, book, 2);
    assert.equal(changes.length, 2, 'the second change waits for the next frame');

    const snapshot = publisher.snapshot(info.id, 0)!;
    assert.deepEqual(changes.slice(2).map((c) => [c.assetId, c.seq]), [['m1-yes', 2], ['m1-no', 2]], 'published ahead of the snapshot');
    assert.deepEqual([snapshot.seq, snapshot.hash, snapshot.bids.map((l) => l.price)], [2, changes[2]!.hash, ['0.45', '0.4']]);
    frames.advance(FRAME_MS);
    assert.equal(changes.length, 4, 'the frame has nothing left to publish');
  });

  it('publishes nothing, and keeps seq, when a frame nets out', () => {
    const { publisher, frames, changes, info, book } = setup();
    book.set('ask', 700_000, 1_000_000n);
    publisher.committed(info, book, 1);
    book.set('ask', 700_000, 0n);
    publisher.committed(info, book, 2);
    frames.advance(FRAME_MS);
    assert.deepEqual(changes, []);
    assert.equal(publisher.snapshot(info.id, 0)!.seq, 0);
  });

  it('publishes the state handed over at commit, not the live book a later batch is changing', () => {
    const { publisher, frames, changes, info, book } = setup();
    book.set('bid', 500_000, 1_000_000n);
    publisher.committed(info, book, 1);
    book.set('bid', 510_000, 1_000_000n); // a batch in flight: not committed
    frames.advance(0);
    assert.deepEqual(changes[0]!.changes, [{ price: '0.5', side: 'buy', size: '1' }]);
  });

  it('snapshots show the last published frame: snapshot plus the later changes is the committed book, wherever the snapshot falls', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('commit' as const), side: fc.constantFrom('bid' as const, 'ask' as const), cents: fc.integer({ min: 1, max: 9 }), size: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 2 * FRAME_MS }) }),
      fc.record({ kind: fc.constant('subscribe' as const), outcome: fc.constantFrom(0 as const, 1 as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { publisher, frames, changes, info, book } = setup();
        const subscribers: { outcome: 0 | 1; book: Subscriber; from: number }[] = [];
        const final = [new Subscriber(publisher.snapshot(info.id, 0)!), new Subscriber(publisher.snapshot(info.id, 1)!)];
        for (const [index, s] of steps.entries()) {
          if (s.kind === 'commit') {
            book.set(s.side, s.cents * 100_000, BigInt(s.size) * 1_000_000n);
            publisher.committed(info, book, index);
          } else if (s.kind === 'wait') {
            frames.advance(s.ms);
          } else {
            subscribers.push({ outcome: s.outcome, book: new Subscriber(publisher.snapshot(info.id, s.outcome)!), from: changes.length });
          }
        }
        publisher.stop();
        for (const change of changes) final[change.assetId === info.tokenId1 ? 0 : 1]!.apply(change);
        for (const subscriber of subscribers) {
          for (const change of changes.slice(subscriber.from)) if (change.assetId === (subscriber.outcome === 0 ? info.tokenId1 : info.tokenId2)) subscriber.book.apply(change);
          assert.deepEqual([subscriber.book.seq, subscriber.book.hash], [final[subscriber.outcome]!.seq, final[subscriber.outcome]!.hash]);
        }
        for (const outcome of [0, 1] as const) {
          const levels = book.levels(outcome);
          const toLevel = (l: BookLevel) => ({ price: String(l.priceMicros / 1_000_000), size: String(l.sizeBaseUnits / 1_000_000n) });
          const expected = bookHash(info.id, outcome === 0 ? info.tokenId1 : info.tokenId2, levels.bids.map(toLevel), levels.asks.map(toLevel));
          assert.equal(final[outcome]!.hash, expected, 'the changes end at the committed book');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('forgetting a retired market removes every published level at once, then publishes nothing more', () => {
    const { publisher, frames, changes, info, book } = setup();
    book.set('bid', 200_000, 1_000_000n);
    book.set('ask', 300_000, 2_000_000n);
    publisher.committed(info, book, 1);
    frames.advance(0);
    const before = publisher.snapshot(info.id, 0)!;
    book.set('bid', 250_000, 3_000_000n);
    publisher.committed(info, book, 2);
    publisher.forget(info.id, 3);
    // What a subscriber of the book before the retirement holds ends empty.
    const subscriber = new Subscriber(before);
    for (const change of changes.filter((c) => c.assetId === info.tokenId1 && c.seq > before.seq)) subscriber.apply(change);
    assert.deepEqual([subscriber.seq, subscriber.hash], [2, bookHash(info.id, info.tokenId1, [], [])]);
    assert.deepEqual(changes.at(-1)!.changes.map((c) => c.size), ['0', '0'], 'both levels it last showed removed, the pending one never shown');
    assert.equal(changes.at(-1)!.timestampMs, 3);
    assert.equal(publisher.snapshot(info.id, 0), undefined);
    const published = changes.length;
    book.set('bid', 200_000, 0n);
    publisher.committed(info, book, 4);
    frames.advance(FRAME_MS);
    assert.equal(changes.length, published);
  });

  it('a tick size change, which no level change or hash carries, goes out as a snapshot of each token', () => {
    const { publisher, frames, changes, snapshots, info, book } = setup();
    book.set('bid', 200_000, 1_000_000n);
    publisher.committed(info, book, 1);
    frames.advance(FRAME_MS);
    publisher.committed({ ...info, tickSize: '0.001' }, book, 2);
    frames.advance(FRAME_MS);
    assert.equal(changes.length, 2, 'the levels did not change');
    assert.deepEqual(snapshots.map((s) => [s.assetId, (s.snapshot as { tick_size: string; seq: number }).tick_size, (s.snapshot as { seq: number }).seq]), [[info.tokenId1, '0.001', 1], [info.tokenId2, '0.001', 1]]);
    assert.equal(publisher.snapshot(info.id, 0)!.tick_size, '0.001');
    publisher.committed({ ...info, tickSize: '0.001' }, book, 3);
    frames.advance(FRAME_MS);
    assert.equal(snapshots.length, 2, 'once');
  });

  it('stop publishes every pending change, leaves no frame behind and forgets the books', () => {
    const { publisher, frames, changes, info, book } = setup();
    const other = market('m2');
    const otherBook = new FakeBook();
    publisher.load(other, otherBook);
    book.set('bid', 200_000, 1_000_000n);
    publisher.committed(info, book, 1);
    frames.advance(0);
    otherBook.set('ask', 800_000, 1_000_000n);
    publisher.committed(other, otherBook, 2);
    assert.ok(frames.waiting);
    publisher.stop();
    assert.deepEqual(changes.map((c) => [c.assetId, c.seq]), [['m1-yes', 1], ['m1-no', 1], ['m2-yes', 1], ['m2-no', 1]]);
    assert.equal(frames.waiting, false);
    assert.equal(publisher.snapshot(other.id, 0), undefined);
    assert.equal(publisher.levelCount(), 0);
  });

  it('a book loaded again (rebuilt after a failed batch) keeps its seq and publishes what differs; retain forgets the others silently', () => {
    const { publisher, frames, changes, info, book } = setup();
    const other = market('m2');
    publisher.load(other, new FakeBook());
    book.set('bid', 200_000, 1_000_000n);
    publisher.committed(info, book, 1);
    frames.advance(0);
    const rebuilt = new FakeBook();
    rebuilt.set('bid', 200_000, 1_000_000n);
    rebuilt.set('ask', 900_000, 4_000_000n);
    publisher.load(info, rebuilt);
    publisher.retain(new Set([info.id]));
    frames.advance(FRAME_MS);
    assert.deepEqual(changes.slice(2).map((c) => [c.assetId, c.seq, c.changes]), [
      ['m1-yes', 2, [{ price: '0.9', side: 'sell', size: '4' }]],
      ['m1-no', 2, [{ price: '0.1', side: 'buy', size: '4' }]],
    ]);
    assert.equal(publisher.snapshot(other.id, 0), undefined);
  });

  it('a new book starts at seq 0 and is announced as snapshots of both tokens', () => {
    const { publisher, snapshots, info, clock } = setup();
    const book = new FakeBook();
    book.set('bid', 450_000, 2_000_000n);
    const other = market('m2');
    publisher.load(other, book);
    publisher.announceSnapshots();
    assert.deepEqual(snapshots.map((s) => s.assetId), [info.tokenId1, info.tokenId2, other.tokenId1, other.tokenId2]);
    const snapshot = snapshots[2]!.snapshot as { seq: number; timestamp: number; bids: unknown };
    assert.deepEqual([snapshot.seq, snapshot.timestamp, snapshot.bids], [0, clock.nowMs(), [{ price: '0.45', size: '2', numOrders: 1 }]]);
  });

  it('with frameMs 0 every batch is published on the next turn', () => {
    const { publisher, frames, changes, info, book } = setup(0);
    for (const [index, size] of [1n, 2n, 3n].entries()) {
      book.set('bid', 500_000, size * 1_000_000n);
      publisher.committed(info, book, index);
      frames.advance(0);
    }
    assert.deepEqual(changes.filter((c) => c.assetId === info.tokenId1).map((c) => c.seq), [1, 2, 3]);
  });
});
