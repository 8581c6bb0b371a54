import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { parseDecimal } from '../orders/amounts.ts';

/**
 * One token's order book kept from an `orderbook` snapshot and its `orderbook-price-change`
 * stream (EXTENSIONS.md section 6). Every change is checked: its `seq` must be the next one and
 * the book's hash after it must equal the change's `hash` (sha256 over market, token and every
 * level's price and size, best first, as the server computes it). Pure: no socket here.
 */
export interface Level {
  price: string;
  size: string;
}

export interface BookSnapshotMessage {
  market: string;
  asset_id: string;
  hash: string;
  timestamp: number;
  bids: Level[];
  asks: Level[];
  tick_size: string;
  seq: number;
}

export interface PriceChangeMessage {
  market: string;
  asset_id: string;
  seq: number;
  hash: string;
  timestamp: number;
  changes: { price: string; side: 'buy' | 'sell'; size: string }[];
}

/** `applied`: in sync; `stale`: already in the snapshot; `gap` or `mismatch`: needs a fresh snapshot. */
export type ApplyResult = 'applied' | 'stale' | 'gap' | 'mismatch';

/** Micros of a price string, for exact ordering of levels. */
function micros(price: string): bigint {
  const { units, scale } = parseDecimal(price, 'price');
  return units * 10n ** BigInt(Math.max(0, 6 - scale)) / 10n ** BigInt(Math.max(0, scale - 6));
}

export function bookHash(market: string, assetId: string, bids: readonly Level[], asks: readonly Level[]): string {
  const canonical = JSON.stringify([market, assetId, bids.map((l) => [l.price, l.size]), asks.map((l) => [l.price, l.size])]);
  return bytesToHex(sha256(utf8ToBytes(canonical)));
}

export class LocalBook {
  readonly market: string;
  readonly assetId: string;
  readonly tickSize: string;
  seq: number;
  timestamp: number;
  private readonly bidLevels = new Map<string, string>();
  private readonly askLevels = new Map<string, string>();

  constructor(snapshot: BookSnapshotMessage) {
    this.market = snapshot.market;
    this.assetId = snapshot.asset_id;
    this.tickSize = snapshot.tick_size;
    this.seq = snapshot.seq;
    this.timestamp = snapshot.timestamp;
    for (const l of snapshot.bids) this.bidLevels.set(l.price, l.size);
    for (const l of snapshot.asks) this.askLevels.set(l.price, l.size);
  }

  apply(change: PriceChangeMessage): ApplyResult {
    if (change.seq <= this.seq) return 'stale';
    if (change.seq !== this.seq + 1) return 'gap';
    for (const c of change.changes) {
      const side = c.side === 'buy' ? this.bidLevels : this.askLevels;
      if (c.size === '0') side.delete(c.price);
      else side.set(c.price, c.size);
    }
    this.seq = change.seq;
    this.timestamp = change.timestamp;
    return this.hash() === change.hash ? 'applied' : 'mismatch';
  }

  /** Bids best (highest) first. */
  get bids(): Level[] {
    return sorted(this.bidLevels, -1n);
  }

  /** Asks best (lowest) first. */
  get asks(): Level[] {
    return sorted(this.askLevels, 1n);
  }

  bestBid(): Level | undefined {
    return this.bids[0];
  }

  bestAsk(): Level | undefined {
    return this.asks[0];
  }

  /** The best `levels` levels of each side. */
  depth(levels: number): { bids: Level[]; asks: Level[] } {
    return { bids: this.bids.slice(0, levels), asks: this.asks.slice(0, levels) };
  }

  hash(): string {
    return bookHash(this.market, this.assetId, this.bids, this.asks);
  }
}

function sorted(levels: Map<string, string>, direction: bigint): Level[] {
  return [...levels]
    .map(([price, size]) => ({ price, size, key: micros(price) * direction }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ price, size }) => ({ price, size }));
}
