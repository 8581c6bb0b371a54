import type { BookEntry } from './price-level.ts';

interface Slot {
  expirationSec: number;
  /** Arrival order, so orders expiring in the same second come out in time priority. */
  seq: number;
  entry: BookEntry;
}

/**
 * Resting orders that expire, soonest first (a binary min-heap). Orders that leave the book
 * otherwise are not searched for: their slots are skipped when they surface (lazy deletion), and
 * the heap is rebuilt from the live slots when dead ones outnumber them, so it stays bounded by
 * twice the expiring orders resting (plus a small slack).
 */
export class ExpiryHeap {
  private slots: Slot[] = [];
  private seq = 0;
  private live = 0;

  add(entry: BookEntry): void {
    this.slots.push({ expirationSec: entry.expirationSec, seq: this.seq++, entry });
    this.live += 1;
    this.up(this.slots.length - 1);
  }

  /** An expiring order left the book by a fill, a cancel or self-trade prevention. */
  forget(): void {
    this.live -= 1;
    if (this.slots.length > 2 * this.live + 64) this.compact();
  }

  /** Pops the soonest order expired at `nowSec` that is still in the book; it is up to the caller to remove it. */
  popExpired(nowSec: number): BookEntry | undefined {
    for (;;) {
      const top = this.slots[0];
      if (!top || top.expirationSec > nowSec) return undefined;
      this.popTop();
      if (top.entry.level !== undefined) {
        this.live -= 1;
        return top.entry;
      }
    }
  }

  private compact(): void {
    this.slots = this.slots.filter((slot) => slot.entry.level !== undefined);
    for (let i = (this.slots.length >>> 1) - 1; i >= 0; i--) this.down(i);
  }

  private popTop(): void {
    const last = this.slots.pop()!;
    if (this.slots.length === 0) return;
    this.slots[0] = last;
    this.down(0);
  }

  private less(a: Slot, b: Slot): boolean {
    return a.expirationSec < b.expirationSec || (a.expirationSec === b.expirationSec && a.seq < b.seq);
  }

  private up(i: number): void {
    const slot = this.slots[i]!;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!this.less(slot, this.slots[parent]!)) break;
      this.slots[i] = this.slots[parent]!;
      i = parent;
    }
    this.slots[i] = slot;
  }

  private down(i: number): void {
    const n = this.slots.length;
    const slot = this.slots[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.less(this.slots[child + 1]!, this.slots[child]!)) child += 1;
      if (!this.less(this.slots[child]!, slot)) break;
      this.slots[i] = this.slots[child]!;
      i = child;
    }
    this.slots[i] = slot;
  }
}
