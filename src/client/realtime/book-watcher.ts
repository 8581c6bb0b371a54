import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/realtime.ts';
import { Listeners } from './listeners.ts';
import { LocalBook, type BookSnapshotMessage, type Level, type PriceChangeMessage } from './local-book.ts';

/**
 * `watchBook(tokenIds)`: local books kept in sync over Socket.IO. It subscribes with
 * `orderbook-market-connect`, starts each book from its `orderbook` snapshot, applies every
 * `orderbook-price-change`, and asks for a fresh snapshot when a `seq` is skipped or a hash does
 * not match. Socket.IO reconnects with backoff; every (re)connect resubscribes, so the books
 * restart from new snapshots.
 */
export type BookWatcherEvents = {
  /** A book changed (snapshot or change applied); it now equals the server's book of that seq. */
  update: (tokenId: string, book: LocalBook) => void;
  /** A gap or mismatch was seen; a fresh snapshot has been asked for. */
  resync: (tokenId: string, reason: 'gap' | 'mismatch') => void;
  /** The server refused a subscription (unknown token, too many tokens). */
  error: (error: { code: string; message: string; tokenIds: string[] }) => void;
};

/** Why `ready()` or `until()` gave up: the server refused the subscription, or time ran out. */
export class BookWatchError extends Error {
  override readonly name = 'BookWatchError';
  /** The refusal's code (NOT_FOUND for an unknown token, VALIDATION_FAILED, ...), or TIMEOUT. */
  readonly code: string;
  readonly tokenIds: string[];

  constructor(code: string, message: string, tokenIds: string[]) {
    super(message);
    this.code = code;
    this.tokenIds = tokenIds;
  }
}

export interface WaitOptions {
  /** How long to wait before rejecting with code TIMEOUT; default 30 s, `Infinity` waits forever. */
  timeoutMs?: number;
}

const DEFAULT_WAIT_MS = 30_000;

export interface WatchBookOptions {
  /** Socket.IO transports; default websocket only (no sticky sessions needed behind a balancer). */
  transports?: ('websocket' | 'polling')[];
}

export class BookWatcher {
  private readonly books = new Map<string, LocalBook>();
  private readonly resyncing = new Set<string>();
  /** Tokens whose subscription the server refused, until a (re)connect asks again. */
  private readonly refusals = new Map<string, { code: string; message: string }>();
  private readonly listeners = new Listeners<BookWatcherEvents>();
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  private readonly tokenIds: string[];
  /** How many times a book was resynchronised (gaps and mismatches). */
  resyncCount = 0;

  constructor(baseUrl: string, tokenIds: readonly string[], options: WatchBookOptions = {}) {
    this.tokenIds = [...new Set(tokenIds)];
    this.socket = io(baseUrl, { transports: options.transports ?? ['websocket'], reconnectionDelayMax: 5_000 });
    this.socket.on('connect', () => {
      for (const id of this.tokenIds) this.resyncing.add(id);
      this.refusals.clear();
      this.socket.emit('orderbook-market-connect', this.tokenIds);
    });
    this.socket.on('orderbook', (snapshot) => this.onSnapshot(snapshot as BookSnapshotMessage));
    this.socket.on('orderbook-price-change', (change) => this.onChange(change));
    this.socket.on('subscription-error', (error) => {
      for (const id of error.tokenIds) this.refusals.set(id, error);
      this.listeners.emit('error', error);
    });
  }

  on<E extends keyof BookWatcherEvents>(event: E, listener: BookWatcherEvents[E]): () => void {
    return this.listeners.on(event, listener);
  }

  book(tokenId: string): LocalBook | undefined {
    return this.resyncing.has(tokenId) ? undefined : this.books.get(tokenId);
  }

  bestBid(tokenId: string): Level | undefined {
    return this.book(tokenId)?.bestBid();
  }

  bestAsk(tokenId: string): Level | undefined {
    return this.book(tokenId)?.bestAsk();
  }

  depth(tokenId: string, levels = 10): { bids: Level[]; asks: Level[] } | undefined {
    return this.book(tokenId)?.depth(levels);
  }

  /**
   * Resolves once `predicate` holds for the token's in-sync book (checked now and on every
   * update); rejects when the server refuses the token's subscription or after `timeoutMs`.
   */
  until(tokenId: string, predicate: (book: LocalBook) => boolean, options: WaitOptions = {}): Promise<LocalBook> {
    return this.waitFor([tokenId], predicate, options).then(() => this.book(tokenId)!);
  }

  /** Resolves when every watched token has a book; rejects as `until` does. */
  ready(options: WaitOptions = {}): Promise<void> {
    return this.waitFor(this.tokenIds, () => true, options);
  }

  /** Asks for a fresh snapshot of a token (what a gap or mismatch does). */
  resync(tokenId: string): void {
    this.resyncing.add(tokenId);
    this.socket.emit('orderbook-market-connect', [tokenId]);
  }

  close(): void {
    this.socket.disconnect();
  }

  /** One listener per wait, removed with its timer however the wait ends. */
  private waitFor(tokenIds: readonly string[], predicate: (book: LocalBook) => boolean, options: WaitOptions): Promise<void> {
    const pending = new Set(tokenIds.filter((id) => {
      const book = this.book(id);
      return !(book && predicate(book));
    }));
    if (pending.size === 0) return Promise.resolve();
    const refusal = [...pending].map((id) => this.refusals.get(id)).find((r) => r !== undefined);
    if (refusal) return Promise.reject(new BookWatchError(refusal.code, `subscription refused: ${refusal.message}`, [...pending].filter((id) => this.refusals.has(id))));
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    return new Promise((resolve, reject) => {
      const done = (error?: BookWatchError) => {
        offUpdate();
        offError();
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const offUpdate = this.on('update', (id, book) => {
        if (pending.has(id) && predicate(book)) pending.delete(id);
        if (pending.size === 0) done();
      });
      // A refusal names the tokens it is about; one that names none refused the whole call.
      const offError = this.on('error', (error) => {
        const refused = error.tokenIds.length === 0 ? [...pending] : error.tokenIds.filter((id) => pending.has(id));
        if (refused.length > 0) done(new BookWatchError(error.code, `subscription refused: ${error.message}`, refused));
      });
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => done(new BookWatchError('TIMEOUT', `no book met the condition within ${timeoutMs} ms`, [...pending])), timeoutMs)
        : undefined;
    });
  }

  private onSnapshot(snapshot: BookSnapshotMessage): void {
    const book = new LocalBook(snapshot);
    this.books.set(snapshot.asset_id, book);
    this.refusals.delete(snapshot.asset_id);
    this.resyncing.delete(snapshot.asset_id);
    this.listeners.emit('update', snapshot.asset_id, book);
  }

  private onChange(change: PriceChangeMessage): void {
    const book = this.books.get(change.asset_id);
    if (!book || this.resyncing.has(change.asset_id)) return;
    const result = book.apply(change);
    if (result === 'applied') this.listeners.emit('update', change.asset_id, book);
    else if (result !== 'stale') {
      this.resyncCount += 1;
      this.resync(change.asset_id);
      this.listeners.emit('resync', change.asset_id, result);
    }
  }
}
