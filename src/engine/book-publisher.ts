import type { Clock } from '../clock.ts';
import type { BookLevels } from '../core/book/types.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { diffLevels, toOrderBook, type OrderBookResponse } from './book-view.ts';
import type { MarketTradingInfo } from './types.ts';

/** What the publisher reads of a book: one token's levels, best first. */
export interface LeveledBook {
  levels(outcome: 0 | 1): BookLevels;
}

/** Wall-clock time and one-shot timers for the frames; tests pass a manual one. */
export interface FrameTimer {
  nowMs(): number;
  schedule(run: () => void, delayMs: number): { cancel(): void };
}

/**
 * Real time, not the injected clock: a frame paces the socket writes, it decides nothing, and a
 * manual clock must not hold changes back. A frame due at once still waits for `setImmediate`, so
 * the acknowledgements of the batch that committed are written before the frame's broadcast.
 */
export const realFrameTimer: FrameTimer = {
  nowMs: () => performance.now(),
  schedule(run, delayMs) {
    if (delayMs <= 0) {
      const immediate = setImmediate(run);
      immediate.unref();
      return { cancel: () => clearImmediate(immediate) };
    }
    const timeout = setTimeout(run, delayMs);
    timeout.unref();
    return { cancel: () => clearTimeout(timeout) };
  },
};

export interface BookPublisherOptions {
  events: DomainEvents;
  /** Timestamps of snapshots and of changes published for a rebuilt book. */
  clock: Clock;
  /** The least time between two frames; 0 publishes every batch's changes on the next turn. */
  frameMs: number;
  timer?: FrameTimer;
}

interface MarketFeed {
  info: MarketTradingInfo;
  /** Per outcome: the count of changes published, and the book as last published (what snapshots show). */
  seq: [number, number];
  published: [OrderBookResponse, OrderBookResponse];
  /** The committed state not yet published, and the batch time it was reached at. */
  pending: { levels: [BookLevels, BookLevels]; atMs: number } | undefined;
}

/**
 * Publishes the order books' changes as `book-change` events, at most one frame per `frameMs`:
 * a frame carries, per token, the net level changes between the book last published and its
 * committed state now, so the batches committed between two frames cost one broadcast, not one
 * each. The engine hands it each touched book's levels right after the batch committed (never the
 * live books, which a batch in flight changes before its commit). `seq` counts published changes
 * per token and `hash` is the hash of the book after the change; a snapshot shows the book and seq
 * of the last published change, so a snapshot plus the changes after it equals the committed book.
 */
export class BookPublisher {
  private readonly feeds = new Map<string, MarketFeed>();
  /** Markets with a pending state. */
  private readonly dirty = new Set<string>();
  private readonly timer: FrameTimer;
  private scheduled: { cancel(): void } | undefined;
  private lastFrameMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: BookPublisherOptions) {
    this.timer = options.timer ?? realFrameTimer;
  }

  /**
   * A book loaded from the store. A book not followed yet (a start, a market added) is taken as
   * published under seq 0: subscribers learn it from snapshots. A book already followed (rebuilt
   * after a failed batch) keeps its seq, and any difference from what was published goes out in
   * the next frame, so subscribers never need a resync for it.
   */
  load(info: MarketTradingInfo, book: LeveledBook): void {
    const feed = this.feeds.get(info.id);
    if (feed) {
      this.committed(info, book, this.options.clock.nowMs());
      return;
    }
    const published: [OrderBookResponse, OrderBookResponse] = [view(info, 0, book.levels(0), 0), view(info, 1, book.levels(1), 0)];
    this.feeds.set(info.id, { info, seq: [0, 0], published, pending: undefined });
  }

  /** Forgets, without publishing, the books not in `marketIds` (a rebuild no longer loads them). */
  retain(marketIds: Set<string>): void {
    for (const marketId of this.feeds.keys()) {
      if (marketIds.has(marketId)) continue;
      this.feeds.delete(marketId);
      this.dirty.delete(marketId);
    }
  }

  /** The state of a book a batch changed, read right after the batch committed; published in the next frame. */
  committed(info: MarketTradingInfo, book: LeveledBook, atMs: number): void {
    const feed = this.feeds.get(info.id);
    // A market the engine no longer holds has nothing more to publish.
    if (!feed) return;
    feed.info = info;
    feed.pending = { levels: [book.levels(0), book.levels(1)], atMs };
    this.dirty.add(info.id);
    this.scheduleFrame();
  }

  /**
   * The book with its seq, for real-time snapshots; undefined for a book not followed. A change
   * still waiting for its frame is published first: a snapshot asked for after an acknowledgement
   * shows the acknowledged order (EXTENSIONS.md section 12, read your writes), and the sockets
   * already subscribed get that change ahead of the snapshot, so seq stays continuous for them.
   */
  snapshot(marketId: string, outcome: 0 | 1): (OrderBookResponse & { seq: number }) | undefined {
    const feed = this.feeds.get(marketId);
    if (!feed) return undefined;
    if (this.dirty.delete(marketId)) this.publish(feed);
    return { ...feed.published[outcome], timestamp: this.options.clock.nowMs(), seq: feed.seq[outcome] };
  }

  /**
   * The book as the durable records left it (what the next frame publishes, else what was last
   * published), for REST reads; undefined for a book not followed (a market no durable record
   * added yet). Unlike `snapshot`, it publishes nothing: polling the book does not break frames.
   */
  durableBook(marketId: string, outcome: 0 | 1): OrderBookResponse | undefined {
    const feed = this.feeds.get(marketId);
    if (!feed) return undefined;
    const book = feed.pending ? view(feed.info, outcome, feed.pending.levels[outcome], feed.pending.atMs) : feed.published[outcome];
    return { ...book, timestamp: this.options.clock.nowMs() };
  }

  /**
   * Every book followed, as a `book-snapshot` of each token: after a start, subscribers of any
   * node replace what they hold (after a takeover, what the previous engine node published).
   */
  announceSnapshots(): void {
    for (const feed of this.feeds.values()) {
      for (const [outcome, assetId] of [[0, feed.info.tokenId1], [1, feed.info.tokenId2]] as const) {
        this.options.events.publish('book-snapshot', { assetId, snapshot: this.snapshot(feed.info.id, outcome) });
      }
    }
  }

  /**
   * Forgets the book of a market retired at `atMs` (resolved: every order of it cancelled).
   * Subscribers see every level removed, so what they hold ends empty, not as it last traded.
   */
  forget(marketId: string, atMs: number): void {
    const feed = this.feeds.get(marketId);
    if (!feed) return;
    feed.pending = { levels: [EMPTY_LEVELS, EMPTY_LEVELS], atMs };
    this.publish(feed);
    this.feeds.delete(marketId);
    this.dirty.delete(marketId);
  }

  /** Publishes every pending change now, then forgets every book (the engine stops). */
  stop(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.publishDirty();
    this.feeds.clear();
  }

  /** Price levels of token 1's books as last published (the levels of both tokens mirror each other). */
  levelCount(): number {
    let levels = 0;
    for (const feed of this.feeds.values()) levels += feed.published[0].bids.length + feed.published[0].asks.length;
    return levels;
  }

  /** A frame at once if the last one is at least `frameMs` old, else when it will be. */
  private scheduleFrame(): void {
    if (this.scheduled) return;
    const wait = this.lastFrameMs + this.options.frameMs - this.timer.nowMs();
    this.scheduled = this.timer.schedule(() => this.frame(), Math.max(0, wait));
  }

  private frame(): void {
    this.scheduled = undefined;
    this.lastFrameMs = this.timer.nowMs();
    this.publishDirty();
  }

  private publishDirty(): void {
    for (const marketId of this.dirty) this.publish(this.feeds.get(marketId)!);
    this.dirty.clear();
  }

  /**
   * One `book-change` per token whose levels differ from what was last published; and, for a
   * token whose tick size changed (which neither a change nor the book's hash carries), a
   * `book-snapshot` after it, so subscribers replace the book they hold.
   */
  private publish(feed: MarketFeed): void {
    const { pending, info } = feed;
    if (!pending) return;
    feed.pending = undefined;
    for (const outcome of [0, 1] as const) {
      const before = feed.published[outcome];
      const after = view(info, outcome, pending.levels[outcome], pending.atMs);
      const changes = diffLevels(before, after);
      if (changes.length > 0) {
        feed.seq[outcome] += 1;
        this.options.events.publish('book-change', { marketId: info.id, assetId: after.asset_id, seq: feed.seq[outcome], hash: after.hash, timestampMs: pending.atMs, changes });
      }
      feed.published[outcome] = after;
      if (after.tick_size !== before.tick_size) {
        this.options.events.publish('book-snapshot', { assetId: after.asset_id, snapshot: { ...after, timestamp: this.options.clock.nowMs(), seq: feed.seq[outcome] } });
      }
    }
  }
}

const EMPTY_LEVELS: BookLevels = { bids: [], asks: [] };

function view(info: MarketTradingInfo, outcome: 0 | 1, levels: BookLevels, timestampMs: number): OrderBookResponse {
  return toOrderBook({ marketId: info.id, tokenId: outcome === 0 ? info.tokenId1 : info.tokenId2, tickSize: info.tickSize, timestampMs, bids: levels.bids, asks: levels.asks });
}
