import type { RestingOrder } from './types.ts';

/** A resting order inside the book: the public fields plus its place in a level's queue. */
export interface BookEntry extends RestingOrder {
  /** Its price in the book's terms (outcome 0's token). */
  readonly bookPriceMicros: number;
  /** The level holding it; undefined once it left the book. */
  level: PriceLevel | undefined;
  prev: BookEntry | undefined;
  next: BookEntry | undefined;
}

/**
 * One price of one side: a FIFO queue (intrusive doubly linked list, so an order leaves from
 * anywhere in O(1)) with its exact total and count kept as orders come, fill and go.
 */
export class PriceLevel {
  head: BookEntry | undefined;
  private tail: BookEntry | undefined;
  totalBaseUnits = 0n;
  orderCount = 0;

  constructor(readonly priceMicros: number) {}

  append(entry: BookEntry): void {
    entry.level = this;
    entry.prev = this.tail;
    entry.next = undefined;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
    this.totalBaseUnits += entry.remainingBaseUnits;
    this.orderCount += 1;
  }

  remove(entry: BookEntry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    this.totalBaseUnits -= entry.remainingBaseUnits;
    this.orderCount -= 1;
    entry.level = entry.prev = entry.next = undefined;
  }

  /** A fill takes `size` from a resting order of this level. */
  reduce(entry: BookEntry, sizeBaseUnits: bigint): void {
    entry.remainingBaseUnits -= sizeBaseUnits;
    this.totalBaseUnits -= sizeBaseUnits;
  }

  get isEmpty(): boolean {
    return this.head === undefined;
  }
}
