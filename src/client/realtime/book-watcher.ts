import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../realtime/messages.ts';
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

export interface WatchBookOptions {
  /** Socket.IO transports; default websocket only (no sticky sessions needed behind a balancer). */
  transports?: ('websocket' | 'polling')[];
}

export class BookWatcher {
  private readonly books = new Map<string, LocalBook>();
  private readonly resyncing = new Set<string>();
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
      this.socket.emit('orderbook-market-connect', this.tokenIds);
    });
    this.socket.on('orderbook', (snapshot) => this.onSnapshot(snapshot as BookSnapshotMessage));
    this.socket.on('orderbook-price-change', (change) => this.onChange(change));
    this.socket.on('subscription-error', (error) => this.listeners.emit('error', error));
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

  /** Resolves once `predicate` holds for the token's in-sync book (checked now and on every update). */
  until(tokenId: string, predicate: (book: LocalBook) => boolean): Promise<LocalBook> {
    const current = this.book(tokenId);
    if (current && predicate(current)) return Promise.resolve(current);
    return new Promise((resolve) => {
      const off = this.on('update', (id, book) => {
        if (id === tokenId && predicate(book)) {
          off();
          resolve(book);
        }
      });
    });
  }

  /** Resolves when every watched token has a book. */
  ready(): Promise<void> {
    return Promise.all(this.tokenIds.map((id) => this.until(id, () => true))).then(() => undefined);
  }

  /** Asks for a fresh snapshot of a token (what a gap or mismatch does). */
  resync(tokenId: string): void {
    this.resyncing.add(tokenId);
    this.socket.emit('orderbook-market-connect', [tokenId]);
  }

  close(): void {
    this.socket.disconnect();
  }

  private onSnapshot(snapshot: BookSnapshotMessage): void {
    const book = new LocalBook(snapshot);
    this.books.set(snapshot.asset_id, book);
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
