import { complementPrice, PRICE_ONE } from '../money.ts';
import { ExpiryHeap } from './expiry-heap.ts';
import { isBookBid, makeFill, toBookPrice } from './fill.ts';
import type { BookEntry } from './price-level.ts';
import { SideIndex } from './side-index.ts';
import type { BookLevel, BookLevels, Fill, IncomingOrder, RestingOrder, RestingOrderInit, SubmitResult } from './types.ts';

const SCALE = Number(PRICE_ONE);

/** Told of each fill as matching makes it; returns the ids of resting orders to take out of the book at once. */
export type AfterFill = (fill: Fill) => readonly string[] | undefined;

/** What one pass of matching did, before the order's own outcome is decided. */
interface MatchOutcome {
  fills: Fill[];
  remainingBaseUnits: bigint;
  expired: { id: string }[];
  cancelledOwn: { id: string }[];
}

/**
 * One market's order book and matching (see README.md). Pure and synchronous: the caller passes
 * the time, owns the ids, and applies the returned fills to balances. Price-time priority; the
 * resting order's price is the execution price; self-trade prevention cancels the resting order.
 */
export class MarketBook {
  private readonly bids = new SideIndex(true);
  private readonly asks = new SideIndex(false);
  private readonly orders = new Map<string, BookEntry>();
  private readonly expiries = new ExpiryHeap();

  /**
   * Matches and rests an order. `afterFill`, when given, is told of each fill as it happens and
   * may name resting orders that leave the book before matching goes on (the engine's market-maker
   * protection withdraws a maker's quotes the moment a fill trips it). A FOK checked its liquidity
   * before: withdrawn orders can then leave it partly filled and cancelled.
   */
  submit(order: IncomingOrder, nowSec: number, afterFill?: AfterFill): SubmitResult {
    this.assertNew(order, order.sizeBaseUnits);
    const opposite = isBookBid(order) ? this.asks : this.bids;
    const limit = toBookPrice(order.outcome, order.priceMicros);
    if (order.postOnly) return this.submitPostOnly(order, opposite, limit, nowSec);
    if (order.type === 'FOK' && this.liquidity(opposite, limit, nowSec, order.ownerId, order.sizeBaseUnits) < order.sizeBaseUnits) {
      return { fills: [], status: 'CANCELLED', rested: false, expired: [], cancelledOwn: [] };
    }
    const { fills, remainingBaseUnits: remaining, expired, cancelledOwn } = this.match(order, opposite, limit, nowSec, afterFill);
    if (remaining === 0n) return { fills, status: 'EXECUTED', rested: false, expired, cancelledOwn };
    if (order.type !== 'GTC') return { fills, status: 'CANCELLED', rested: false, expired, cancelledOwn };
    this.rest(order, order.sizeBaseUnits, remaining);
    return { fills, status: fills.length === 0 ? 'PENDING' : 'EXECUTING', rested: true, expired, cancelledOwn };
  }

  /** Removes a resting order; false when it is not resting (unknown, filled, cancelled or expired). */
  cancel(orderId: string): boolean {
    const entry = this.orders.get(orderId);
    if (!entry) return false;
    this.remove(entry);
    return true;
  }

  /** Removes and returns the resting orders with 0 < expirationSec ≤ nowSec, soonest first. */
  expireUntil(nowSec: number): { id: string }[] {
    const expired: { id: string }[] = [];
    for (let entry = this.expiries.popExpired(nowSec); entry; entry = this.expiries.popExpired(nowSec)) {
      this.unlink(entry);
      expired.push({ id: entry.id });
    }
    return expired;
  }

  /**
   * Whether the order would meet a resting order it trades with, if submitted now. Expired resting
   * orders do not count (matching skips them); the owner's own orders do, because meeting them
   * changes the book (self-trade prevention cancels them) and a post-only order must not do that.
   */
  wouldCross(order: IncomingOrder, nowSec: number): boolean {
    const opposite = isBookBid(order) ? this.asks : this.bids;
    return this.liquidity(opposite, toBookPrice(order.outcome, order.priceMicros), nowSec, undefined, 1n) > 0n;
  }

  /** One token's view, in that token's terms, best first. Token 1's view is the mirror of token 0's. */
  levels(outcome: 0 | 1): BookLevels {
    if (outcome === 0) return { bids: view(this.bids, false), asks: view(this.asks, false) };
    return { bids: view(this.asks, true), asks: view(this.bids, true) };
  }

  /**
   * Puts back an order that was resting (a restart rebuilding the book from the store). Time
   * priority is call order. The book trusts the store: it does not match or check crossing.
   */
  restore(order: RestingOrderInit): void {
    this.assertNew(order, order.remainingBaseUnits);
    this.rest(order, order.sizeBaseUnits, order.remainingBaseUnits);
  }

  /** A copy of a resting order, or undefined when it is not resting. */
  get(orderId: string): Readonly<RestingOrder> | undefined {
    const entry = this.orders.get(orderId);
    if (!entry) return undefined;
    const { id, ownerId, outcome, side, priceMicros, sizeBaseUnits, remainingBaseUnits, type, postOnly, expirationSec, takerFeeBps, makerFeeBps } = entry;
    return { id, ownerId, outcome, side, priceMicros, sizeBaseUnits, remainingBaseUnits, type, postOnly, expirationSec, takerFeeBps, makerFeeBps };
  }

  /**
   * Takes from the best opposite level while it crosses: expired makers are removed and skipped,
   * the owner's own makers are cancelled (self-trade prevention), the rest fill at their price.
   */
  private match(order: IncomingOrder, opposite: SideIndex, limit: number, nowSec: number, afterFill: AfterFill | undefined): MatchOutcome {
    const outcome: MatchOutcome = { fills: [], remainingBaseUnits: order.sizeBaseUnits, expired: [], cancelledOwn: [] };
    for (let level = opposite.best(); level && outcome.remainingBaseUnits > 0n && opposite.crosses(level.priceMicros, limit); level = opposite.best()) {
      const maker = level.head!;
      if (isExpired(maker, nowSec)) {
        this.remove(maker);
        outcome.expired.push({ id: maker.id });
      } else if (maker.ownerId === order.ownerId) {
        this.remove(maker);
        outcome.cancelledOwn.push({ id: maker.id });
      } else {
        const size = maker.remainingBaseUnits < outcome.remainingBaseUnits ? maker.remainingBaseUnits : outcome.remainingBaseUnits;
        const fill = makeFill(order, maker, size);
        outcome.fills.push(fill);
        outcome.remainingBaseUnits -= size;
        level.reduce(maker, size);
        if (maker.remainingBaseUnits === 0n) this.remove(maker);
        for (const id of afterFill?.(fill) ?? []) this.cancel(id);
      }
    }
    return outcome;
  }

  /**
   * A post-only order never takes: any live resting order it would meet (its owner's included)
   * rejects it with nothing changed. Expired orders in its way are only stale, so they are
   * removed and it rests.
   */
  private submitPostOnly(order: IncomingOrder, opposite: SideIndex, limit: number, nowSec: number): SubmitResult {
    if (this.liquidity(opposite, limit, nowSec, undefined, 1n) > 0n) {
      return { fills: [], status: 'REJECTED', rested: false, rejectReason: 'POST_ONLY_WOULD_CROSS', expired: [], cancelledOwn: [] };
    }
    const expired: { id: string }[] = [];
    for (let level = opposite.best(); level && opposite.crosses(level.priceMicros, limit); level = opposite.best()) {
      expired.push({ id: level.head!.id });
      this.remove(level.head!);
    }
    this.rest(order, order.sizeBaseUnits, order.sizeBaseUnits);
    return { fills: [], status: 'PENDING', rested: true, expired, cancelledOwn: [] };
  }

  /**
   * Live liquidity the order limited at `limit` (book terms) could take now, counted up to
   * `enough`: expired orders are left out, and so are `skipOwner`'s (self-trade prevention would
   * cancel them rather than fill). Reads only; FOK and post-only decide on it before changing anything.
   */
  private liquidity(opposite: SideIndex, limit: number, nowSec: number, skipOwner: string | undefined, enough: bigint): bigint {
    let total = 0n;
    for (let rank = 0, level = opposite.at(0); level && opposite.crosses(level.priceMicros, limit); level = opposite.at(++rank)) {
      for (let entry = level.head; entry; entry = entry.next) {
        if (isExpired(entry, nowSec) || entry.ownerId === skipOwner) continue;
        total += entry.remainingBaseUnits;
        if (total >= enough) return total;
      }
    }
    return total;
  }

  private rest(order: IncomingOrder, sizeBaseUnits: bigint, remainingBaseUnits: bigint): void {
    const bookPriceMicros = toBookPrice(order.outcome, order.priceMicros);
    const entry: BookEntry = {
      id: order.id,
      ownerId: order.ownerId,
      outcome: order.outcome,
      side: order.side,
      priceMicros: order.priceMicros,
      sizeBaseUnits,
      remainingBaseUnits,
      type: order.type,
      postOnly: order.postOnly,
      expirationSec: order.expirationSec,
      takerFeeBps: order.takerFeeBps,
      makerFeeBps: order.makerFeeBps,
      bookPriceMicros,
      level: undefined,
      prev: undefined,
      next: undefined,
    };
    (isBookBid(order) ? this.bids : this.asks).levelFor(bookPriceMicros).append(entry);
    this.orders.set(entry.id, entry);
    if (entry.expirationSec > 0) this.expiries.add(entry);
  }

  /** Takes an entry out of the book for good (fill, cancel, self-trade prevention, expiry met while matching). */
  private remove(entry: BookEntry): void {
    this.unlink(entry);
    if (entry.expirationSec > 0) this.expiries.forget();
  }

  /** Unlinks from its level, drops an emptied level and the id; the expiry heap is the caller's business. */
  private unlink(entry: BookEntry): void {
    const level = entry.level!;
    level.remove(entry);
    if (level.isEmpty) (isBookBid(entry) ? this.bids : this.asks).removeLevel(level);
    this.orders.delete(entry.id);
  }

  private assertNew(order: IncomingOrder, restingBaseUnits: bigint): void {
    if (this.orders.has(order.id)) throw new Error(`order ${order.id} is already in the book`);
    if (!Number.isInteger(order.priceMicros) || order.priceMicros <= 0 || order.priceMicros >= SCALE) {
      throw new Error(`order ${order.id}: price ${order.priceMicros} micros is not strictly between 0 and ${SCALE}`);
    }
    if (order.sizeBaseUnits <= 0n || restingBaseUnits <= 0n || restingBaseUnits > order.sizeBaseUnits) {
      throw new Error(`order ${order.id}: sizes must be positive, remaining at most size (size ${order.sizeBaseUnits}, remaining ${restingBaseUnits})`);
    }
    // A post-only order may only rest, which FOK and FAK never do (the order rules refuse the pair).
    if (order.postOnly && order.type !== 'GTC') throw new Error(`order ${order.id}: post-only is for GTC orders, not ${order.type}`);
  }
}

const isExpired = (entry: BookEntry, nowSec: number): boolean => entry.expirationSec > 0 && entry.expirationSec <= nowSec;

/** A side's levels best first; `mirrored` shows them in token 1's terms, where book price p is 1 − p. */
function view(side: SideIndex, mirrored: boolean): BookLevel[] {
  const levels: BookLevel[] = [];
  for (let rank = 0, level = side.at(0); level; level = side.at(++rank)) {
    levels.push({ priceMicros: mirrored ? complementPrice(level.priceMicros) : level.priceMicros, sizeBaseUnits: level.totalBaseUnits, orderCount: level.orderCount });
  }
  return levels;
}
