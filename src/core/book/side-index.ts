import { PriceLevel } from './price-level.ts';

/**
 * The price levels of one side of the book, sorted. Levels live in a map by price; their prices
 * sit in an array ordered worst to best, so the best level is the last element (read and popped
 * in O(1), which is what matching does most) and a new or emptied level costs one binary search
 * and a splice over the few hundred active prices a binary market has at most per tick grid.
 */
export class SideIndex {
  private readonly byPrice = new Map<number, PriceLevel>();
  /** Sort keys, ascending: the price for bids (higher is better), its negation for asks. */
  private readonly keys: number[] = [];

  constructor(readonly isBid: boolean) {}

  get levelCount(): number {
    return this.keys.length;
  }

  /** The level `rank` places from the best (0 = best). */
  at(rank: number): PriceLevel | undefined {
    const key = this.keys[this.keys.length - 1 - rank];
    return key === undefined ? undefined : this.byPrice.get(this.priceOf(key));
  }

  best(): PriceLevel | undefined {
    return this.at(0);
  }

  /** Whether a resting price of this side trades with an opposite order limited at `priceMicros` (book terms). */
  crosses(restingPriceMicros: number, priceMicros: number): boolean {
    return this.isBid ? restingPriceMicros >= priceMicros : restingPriceMicros <= priceMicros;
  }

  levelFor(priceMicros: number): PriceLevel {
    const existing = this.byPrice.get(priceMicros);
    if (existing) return existing;
    const level = new PriceLevel(priceMicros);
    this.byPrice.set(priceMicros, level);
    const key = this.keyOf(priceMicros);
    this.keys.splice(this.lowerBound(key), 0, key);
    return level;
  }

  removeLevel(level: PriceLevel): void {
    this.byPrice.delete(level.priceMicros);
    const key = this.keyOf(level.priceMicros);
    if (this.keys[this.keys.length - 1] === key) this.keys.pop();
    else this.keys.splice(this.lowerBound(key), 1);
  }

  private keyOf(priceMicros: number): number {
    return this.isBid ? priceMicros : -priceMicros;
  }

  private priceOf(key: number): number {
    return this.isBid ? key : -key;
  }

  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
