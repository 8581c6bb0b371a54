import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { MarketBook } from '../core/book/market-book.ts';
import { complementPrice, formatPrice, formatUnits } from '../core/money.ts';
import type { Fill, IncomingOrder } from '../core/book/types.ts';
import { buyReleaseOnFill, costBaseUnits, reservationFor, type ReservationTerms } from '../core/orders/reservation.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { isRetryable } from '../settlement/embedded/retry.ts';
import { COLLATERAL, InsufficientBalanceError, type LockSession, type Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { findOrderById, findOrderByIdempotencyKey, findUsedHashes, loadOpenOrders, maxBookSeq, type OrderRow } from '../store/orders-repository.ts';
import { maxTradeSeq } from '../store/trades-repository.ts';
import { Batch } from './batch.ts';
import { BookPublisher } from './book-publisher.ts';
import { toOrderBook, type OrderBookResponse } from './book-view.ts';
import { detailed, fillInDetails, type EngineOrder } from './engine-order.ts';
import { GroupCommitQueue } from './group-commit-queue.ts';
import { EngineUnavailableError, FencedError } from './queue-full-error.ts';
import type { MarketDirectory } from './market-directory.ts';
import { toOrderResponse, toTradeResponse } from './shapes.ts';
import { SettlementRounds } from './settlement-rounds.ts';
import { failure, type CancelOrderOutcome, type EngineFailure, type MarketTradingInfo, type PlaceOrderOutcome, type PlaceOrderRequest } from './types.ts';
import type { RestingQuote } from '../core/rewards/index.ts';

const MAX_BATCH_ATTEMPTS = 3;

type Command =
  | { kind: 'place'; request: PlaceOrderRequest }
  | { kind: 'cancel'; userId: string; orderId: string }
  | { kind: 'cancel-markets'; userId: string; marketIds: string[] }
  | { kind: 'retire'; work: RetireWork<unknown> }
  | { kind: 'tick' }
  | { kind: 'settle' };

/** Order hashes and idempotency keys taken, in the store or earlier in the same batch. */
interface UsedKeys {
  hashes: Set<string>;
  idempotency: Map<string, OrderRow>;
}

/** Work that records markets' resolution in the engine's transaction and names the markets it resolved. */
export type RetireWork<T> = (tx: Db) => Promise<{ marketIds: string[]; result: T }>;

type CancelOutcome = { ok: true; order: EngineOrder } | EngineFailure;
type CommandResult = PlaceOrderOutcome | CancelOutcome | { ok: true; cancelled: EngineOrder[] } | { ok: true } | { ok: true; result: unknown };

interface MarketRuntime {
  info: MarketTradingInfo;
  book: MarketBook;
  /** Speed-bumped taker orders, FIFO, with the time they may enter the book. */
  delayed: { orderId: string; dueMs: number }[];
}

export interface EngineOptions {
  db: Db;
  settlement: Settlement;
  clock: Clock;
  events: DomainEvents;
  markets: MarketDirectory;
  logger: FastifyBaseLogger;
  queueCapacity?: number;
  maxBatch?: number;
  /** The least time between two publications of the book changes (BOOK_FRAME_MS, BookPublisher). */
  bookFrameMs: number;
  /**
   * Least time between the starts of two automatic settlement rounds (a block). A round costs the
   * store about as much as a batch of orders, so running one after every batch halved order entry;
   * trades wait at most this long to be mined. 0 runs a round as soon as the queue is free.
   */
  settlementBlockMs: number;
  /**
   * Runs first inside every batch transaction and throws when this node no longer holds the engine
   * (src/cluster/leadership.ts): a node that lost it writes nothing more.
   */
  fence?(tx: Db): Promise<void>;
}

/**
 * The single writer of the order books (DESIGN.md "engine/"). Every command goes through one
 * bounded group-commit queue: a batch is applied to the in-memory books and the ledger inside one
 * database transaction, and callers are answered and events published only after it commits.
 * If a commit fails the books are rebuilt from the store, so memory never runs ahead of it.
 */
export class MatchingEngine {
  private readonly runtimes = new Map<string, MarketRuntime>();
  private readonly marketOfToken = new Map<string, string>();
  /** Open orders (resting or speed-bumped), by id; those loaded at start without their details until needed. */
  private readonly open = new Map<string, EngineOrder>();
  private readonly lastTrade = new Map<string, { price: string; side: 'buy' | 'sell' }>();
  private readonly queue: GroupCommitQueue<Command, CommandResult>;
  private readonly rounds: SettlementRounds;
  private readonly publisher: BookPublisher;
  private nextBookSeq = 1n;
  private nextTradeSeq = 1n;
  private timer: NodeJS.Timeout | undefined;
  private settlementTimer: NodeJS.Timeout | undefined;
  /** When the last settlement round started (performance.now()), for the block interval. */
  private lastRoundMs = -Infinity;
  private running = false;

  constructor(private readonly options: EngineOptions) {
    this.queue = new GroupCommitQueue<Command, CommandResult>({
      capacity: options.queueCapacity ?? 10_000,
      maxBatch: options.maxBatch ?? 500,
      processBatch: (commands) => this.processBatch(commands),
    });
    this.rounds = new SettlementRounds({ ...options, runtimeOf: (marketId) => this.runtimes.get(marketId)?.info });
    this.publisher = new BookPublisher({ events: options.events, clock: options.clock, frameMs: options.bookFrameMs });
  }

  /** Loads markets and open orders, then starts the timers for expiry, speed bumps and settlement. */
  async start(): Promise<void> {
    await this.load();
    this.publisher.announceSnapshots();
    this.timer = setInterval(() => void this.tick().catch((error) => this.options.logger.error({ err: error }, 'engine tick failed')), 1000);
    this.timer.unref();
    this.running = true;
    this.scheduleSettlement();
  }

  /** Whether this node runs the engine: only a started engine takes commands. */
  get takesCommands(): boolean {
    return this.running;
  }

  /** Only a started engine takes commands: a node that does not run it refuses them (503). */
  private submit(command: Command): Promise<CommandResult> {
    if (!this.running) return Promise.reject(new EngineUnavailableError());
    return this.queue.submit(command);
  }

  /**
   * Stops taking commands, lets queued ones finish, publishes their pending book changes, and
   * forgets the books: another node may run them now.
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    clearTimeout(this.settlementTimer);
    this.settlementTimer = undefined;
    await this.queue.idle();
    this.publisher.stop();
    this.runtimes.clear();
    this.marketOfToken.clear();
    this.open.clear();
    this.lastTrade.clear();
  }

  place(request: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    return this.submit({ kind: 'place', request }) as Promise<PlaceOrderOutcome>;
  }

  async cancel(userId: string, orderId: string): Promise<CancelOrderOutcome> {
    const outcome = (await this.submit({ kind: 'cancel', userId, orderId })) as CancelOutcome;
    return outcome.ok ? { ok: true, order: detailed(outcome.order) } : outcome;
  }

  /** Cancels every open order of the user in the given markets. */
  async cancelInMarkets(userId: string, marketIds: string[]): Promise<OrderRow[]> {
    const result = (await this.submit({ kind: 'cancel-markets', userId, marketIds })) as { cancelled: EngineOrder[] };
    return result.cancelled.map(detailed);
  }

  /** Markets where the user has open orders (resting or speed-bumped). */
  marketsWithOpenOrders(userId: string): string[] {
    const markets = new Set<string>();
    for (const row of this.open.values()) if (row.user_id === userId) markets.add(row.market_id);
    return [...markets];
  }

  /** Expires due orders and releases due speed-bumped orders (the timer calls it; so does the manual clock). */
  async tick(): Promise<void> {
    if (this.running) await this.submit({ kind: 'tick' });
  }

  /** Mines matched trades and confirms mined ones, as many rounds as there is work for. */
  async settle(): Promise<void> {
    while (this.rounds.hasWork) await this.submit({ kind: 'settle' });
  }

  /** Whether a market is loaded: every published, unresolved market is. */
  hasMarket(marketId: string): boolean {
    return this.runtimes.has(marketId);
  }

  /** Adds or refreshes a market after the catalogue changed it (publish, pause, fees, tick). */
  async refreshMarket(marketId: string): Promise<void> {
    const info = await this.options.markets.load(marketId);
    if (info?.status !== 'ACTIVE') return;
    const existing = this.runtimes.get(marketId);
    if (existing) existing.info = info;
    else this.publisher.load(info, this.addRuntime(info).book);
  }

  /**
   * Stops trading markets for good (platform resolution). Inside one engine transaction, `work`
   * records the resolution and names the markets it resolved; the engine then cancels every open
   * order of those markets (releasing their reservations, users told by `order-update`), so no order
   * can slip in between. After the commit their books are published empty and dropped from memory;
   * `refreshMarket` and restarts never load them again because they are no longer ACTIVE. If `work`
   * throws, the batch fails and the books are rebuilt from the store: nothing changed.
   */
  async retireMarkets<T>(work: RetireWork<T>): Promise<T> {
    const outcome = (await this.submit({ kind: 'retire', work })) as { result: T };
    return outcome.result;
  }

  /** The loaded market trading this token: every published market that has not resolved. */
  marketForToken(tokenId: string): MarketTradingInfo | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    return marketId ? this.runtimes.get(marketId)?.info : undefined;
  }

  orderBook(tokenId: string): OrderBookResponse | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    const runtime = marketId ? this.runtimes.get(marketId) : undefined;
    if (!runtime) return undefined;
    return this.view(runtime, tokenId === runtime.info.tokenId1 ? 0 : 1, this.options.clock.nowMs());
  }

  /**
   * The committed book with its seq, for real-time snapshots (a change waiting for its frame is
   * published first: BookPublisher.snapshot).
   */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined {
    const marketId = this.marketOfToken.get(tokenId);
    const runtime = marketId ? this.runtimes.get(marketId) : undefined;
    if (!runtime) return undefined;
    return this.publisher.snapshot(runtime.info.id, tokenId === runtime.info.tokenId1 ? 0 : 1);
  }

  /**
   * Every order resting in a book (speed-bumped orders are not yet), grouped by market, in its own
   * token's terms: what reward sampling scores. One pass over the open orders for all markets.
   */
  restingOrdersByMarket(): Map<string, RestingQuote[]> {
    const byMarket = new Map<string, RestingQuote[]>();
    for (const row of this.open.values()) {
      const resting = this.runtimes.get(row.market_id)?.book.get(row.id);
      if (!resting || resting.remainingBaseUnits <= 0n) continue;
      const list = byMarket.get(row.market_id) ?? [];
      list.push({ orderId: row.id, makerId: row.user_id, outcome: resting.outcome, side: resting.side, priceMicros: resting.priceMicros, remainingBaseUnits: resting.remainingBaseUnits });
      byMarket.set(row.market_id, list);
    }
    return byMarket;
  }

  /** Commands waiting for a batch (what fills up before the queue answers 503). */
  get queueDepth(): number {
    return this.queue.size;
  }

  /** Books held (one per market), their price levels as last published, and open orders. */
  bookStats(): { books: number; levels: number; openOrders: number } {
    return { books: this.runtimes.size, levels: this.publisher.levelCount(), openOrders: this.open.size };
  }

  lastTradePrice(tokenId: string): { price: string; side: 'buy' | 'sell' } | undefined {
    return this.lastTrade.get(tokenId);
  }

  /**
   * A failed commit leaves memory ahead of the store: rebuild the books from the store, and run the
   * batch again when PostgreSQL aborted it only as a deadlock or serialization victim.
   */
  private async processBatch(commands: Command[]): Promise<CommandResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commitBatch(commands);
      } catch (error) {
        // The fence runs before anything is applied: memory is as it was, and no retry can pass it.
        if (error instanceof FencedError) throw error;
        this.options.logger.error({ err: error, attempt }, 'engine batch failed; rebuilding books from the store');
        await this.load();
        if (attempt >= MAX_BATCH_ATTEMPTS || !isRetryable(error)) throw error;
      }
    }
  }

  private async commitBatch(commands: Command[]): Promise<CommandResult[]> {
    // Wall-clock time, not the injected clock: this measures the batch, it decides nothing.
    const startedMs = performance.now();
    const batch = new Batch(this.options.clock.nowMs());
    const results = await this.options.db.transaction().execute(async (tx) => {
      await this.options.fence?.(tx);
      const used = await this.usedHashes(tx, commands);
      batch.locks = await this.openLocks(tx, commands);
      const applied: CommandResult[] = [];
      for (const [i, command] of commands.entries()) {
        // A settle round moves balances in SQL: write the batch's reservations first, and read
        // the balances again after it for the commands still to come.
        if (command.kind === 'settle') await batch.locks.flush();
        applied.push(await this.apply(tx, batch, command, used));
        if (command.kind === 'settle') batch.locks = await this.openLocks(tx, commands.slice(i + 1));
      }
      await fillInDetails(tx, batch.ordersToDetail);
      await batch.locks.flush();
      await batch.write(tx);
      return applied;
    });
    this.publishBookChanges(batch);
    batch.publish();
    this.options.events.publish('engine-batch', { commands: commands.length, trades: batch.trades.length, durationMs: performance.now() - startedMs });
    if (batch.trades.length > 0) this.rounds.noteMatched();
    if (commands.some((c) => c.kind === 'settle')) {
      this.lastRoundMs = startedMs;
      await this.sealBlock();
    }
    this.scheduleSettlement();
    return results;
  }

  /** Trades mined by a settle round go into a block; the next round confirms them. */
  private async sealBlock(): Promise<void> {
    try {
      await this.options.settlement.sealBlock();
    } catch (error) {
      this.options.logger.error({ err: error }, 'sealing a settlement block failed; the next round seals it');
    }
  }

  private async apply(tx: Db, batch: Batch, command: Command, used: UsedKeys): Promise<CommandResult> {
    switch (command.kind) {
      case 'place':
        return this.placeOrder(tx, batch, command.request, used);
      case 'cancel':
        return this.cancelOrder(tx, batch, command.userId, command.orderId);
      case 'cancel-markets':
        return { ok: true, cancelled: this.cancelUserOrders(batch, command.userId, new Set(command.marketIds)) };
      case 'retire':
        return { ok: true, result: await this.retire(tx, batch, command.work) };
      case 'tick':
        this.expireAndRelease(batch);
        return { ok: true };
      case 'settle':
        await this.rounds.run(tx, batch);
        return { ok: true };
    }
  }

  /** Locks and reads, once, the balances this batch's new orders reserve from. */
  private openLocks(tx: Db, commands: Command[]): Promise<LockSession> {
    const keys = commands.flatMap((c) => (c.kind === 'place' ? [{ account: c.request.account, asset: c.request.order.side === 'BUY' ? COLLATERAL : c.request.order.tokenId }] : []));
    return this.options.settlement.openLockSession(tx, keys);
  }

  /** Hashes of this batch's new orders already used by stored orders, in one query. */
  private async usedHashes(tx: Db, commands: Command[]): Promise<UsedKeys> {
    const hashes = commands.flatMap((c) => (c.kind === 'place' ? [c.request.hash] : []));
    return { hashes: await findUsedHashes(tx, hashes), idempotency: new Map() };
  }

  private async placeOrder(tx: Db, batch: Batch, request: PlaceOrderRequest, used: UsedKeys): Promise<PlaceOrderOutcome> {
    const { order } = request;
    if (request.idempotencyKey) {
      const key = `${request.userId}|${request.idempotencyKey}`;
      const prior = used.idempotency.get(key) ?? (await findOrderByIdempotencyKey(tx, request.userId, request.idempotencyKey));
      if (prior) {
        if (prior.hash === request.hash) return { ok: true, order: prior, replayed: true };
        return failure('CONFLICT', 'idempotencyKey was already used for a different order');
      }
    }
    if (used.hashes.has(request.hash)) return failure('CONFLICT', `an order with hash ${request.hash} already exists`);
    const runtime = this.runtimes.get(request.marketId);
    if (!runtime || !isTradable(runtime.info)) return failure('MARKET_NOT_TRADABLE', 'the market is not accepting orders (not active, paused or resolved)');

    const row = this.newOrderRow(batch, request, runtime.info);
    const asset = order.side === 'BUY' ? COLLATERAL : order.tokenId;
    const reserve = reservationFor(termsOf(row), order.sizeBaseUnits);
    try {
      batch.locks.reserve({ account: request.account, asset, amount: reserve, ref: row.id });
    } catch (error) {
      if (error instanceof InsufficientBalanceError) return failure('INSUFFICIENT_BALANCE', insufficientMessage(asset, reserve, error));
      throw error;
    }
    used.hashes.add(request.hash);
    if (request.idempotencyKey) used.idempotency.set(`${request.userId}|${request.idempotencyKey}`, row);
    batch.addOrder(row);

    const incoming = toIncoming(row);
    if (runtime.info.speedBumpDelayMs > 0 && runtime.book.wouldCross(incoming, batch.nowSec)) {
      row.delayed_until = new Date(batch.nowMs + runtime.info.speedBumpDelayMs);
      runtime.delayed.push({ orderId: row.id, dueMs: row.delayed_until.getTime() });
      this.open.set(row.id, row);
      this.announceOrder(batch, row, 'PLACEMENT');
      return { ok: true, order: row, replayed: false };
    }
    if (!this.match(batch, runtime, row, 'PLACEMENT')) {
      return { ...failure('POST_ONLY_WOULD_CROSS', 'the post-only order would cross the book and take liquidity; nothing rests'), order: row };
    }
    return { ok: true, order: row, replayed: false };
  }

  /**
   * Puts an accepted order to the book: fills, rests or ends, and settles its reservation. False
   * when it is a post-only order that would have taken liquidity (it is rejected, nothing rests).
   */
  private match(batch: Batch, runtime: MarketRuntime, row: EngineOrder, announceAs: 'PLACEMENT' | 'UPDATE'): boolean {
    const result = runtime.book.submit(toIncoming(row), batch.nowSec);
    batch.touchedMarkets.add(runtime.info.id);
    for (const gone of [...result.expired, ...result.cancelledOwn]) this.closeOpenOrder(batch, gone.id);
    if (result.rejectReason === 'POST_ONLY_WOULD_CROSS') {
      this.releaseRemaining(batch, row);
      row.status = 'REJECTED';
      batch.orderChanged(row);
      return false;
    }
    for (const fill of result.fills) this.recordFill(batch, runtime, fill, row);
    row.status = result.status;
    batch.orderChanged(row);
    if (result.rested) {
      this.open.set(row.id, row);
    } else {
      this.open.delete(row.id);
      this.releaseRemaining(batch, row);
    }
    this.announceOrder(batch, row, announceAs);
    return true;
  }

  private recordFill(batch: Batch, runtime: MarketRuntime, fill: Fill, takerRow: EngineOrder): void {
    const makerRow = this.open.get(fill.maker.orderId);
    if (!makerRow) throw new Error(`resting order ${fill.maker.orderId} is not open in the engine`);
    for (const [row, party] of [[makerRow, fill.maker], [takerRow, fill.taker]] as const) {
      if (party.side === 'BUY') {
        const remainingBefore = row.size_base_units - row.matched_base_units;
        const release = buyReleaseOnFill(termsOf(row), remainingBefore, fill.sizeBaseUnits, party.priceMicros, party.feeBaseUnits);
        if (release > 0n) batch.locks.release({ account: row.account, asset: COLLATERAL, amount: release, ref: row.id });
      }
      row.matched_base_units += fill.sizeBaseUnits;
    }
    makerRow.status = makerRow.matched_base_units === makerRow.size_base_units ? 'EXECUTED' : 'EXECUTING';
    if (makerRow.status === 'EXECUTED') this.open.delete(makerRow.id);
    batch.orderChanged(makerRow);
    this.announceOrder(batch, makerRow, 'UPDATE');

    const trade = {
      id: randomUUID(),
      seq: this.nextTradeSeq++,
      market_id: runtime.info.id,
      kind: fill.kind,
      status: 'MATCHED' as const,
      token_id: takerRow.token_id,
      side: takerRow.side,
      price_micros: BigInt(fill.taker.priceMicros),
      maker_token_id: makerRow.token_id,
      maker_side: makerRow.side,
      maker_price_micros: BigInt(fill.maker.priceMicros),
      size_base_units: fill.sizeBaseUnits,
      notional_base_units: costBaseUnits(fill.taker.priceMicros, fill.sizeBaseUnits),
      taker_order_id: takerRow.id,
      maker_order_id: makerRow.id,
      taker_user_id: takerRow.user_id,
      maker_user_id: makerRow.user_id,
      taker_wallet: takerRow.account,
      maker_wallet: makerRow.account,
      taker_fee_base_units: fill.taker.feeBaseUnits,
      maker_fee_base_units: fill.maker.feeBaseUnits,
      tx_hash: null,
      matched_at: batch.now,
      mined_at: null,
      confirmed_at: null,
    };
    batch.addTrade(trade);
    batch.announce(this.options.events, 'trade-update', { userIds: unique([takerRow.user_id, makerRow.user_id]), trade: toTradeResponse(trade) });
    this.recordLastTrade(batch, runtime.info, takerRow, fill.taker.priceMicros);
  }

  /** Last trade price of both tokens: the taker's price and side, and their mirror on the other token. */
  private recordLastTrade(batch: Batch, info: MarketTradingInfo, takerRow: EngineOrder, priceMicros: number): void {
    const takerSide = takerRow.side === 0 ? 'buy' : 'sell';
    const otherToken = takerRow.token_id === info.tokenId1 ? info.tokenId2 : info.tokenId1;
    const prints = [
      { assetId: takerRow.token_id, price: formatPrice(priceMicros), side: takerSide },
      { assetId: otherToken, price: formatPrice(complementPrice(priceMicros)), side: takerSide === 'buy' ? 'sell' : 'buy' },
    ] as const;
    for (const print of prints) {
      this.lastTrade.set(print.assetId, { price: print.price, side: print.side });
      batch.announce(this.options.events, 'last-trade-price', { marketId: info.id, assetId: print.assetId, price: print.price, side: print.side, timestampMs: batch.nowMs });
    }
  }

  private async cancelOrder(tx: Db, batch: Batch, userId: string, orderId: string): Promise<CancelOutcome> {
    // An earlier command of this batch may have closed the order: its status is not written yet.
    const row = this.open.get(orderId) ?? batch.changedOrder(orderId) ?? (await findOrderById(tx, orderId));
    if (!row) return failure('NOT_FOUND', 'order not found');
    if (row.user_id !== userId) return failure('FORBIDDEN', 'this order belongs to another user');
    if (!this.open.has(orderId)) return failure('ORDER_NOT_OPEN', `the order is ${row.status} and can no longer be cancelled`);
    this.closeOpenOrder(batch, orderId);
    return { ok: true, order: row };
  }

  private cancelUserOrders(batch: Batch, userId: string, marketIds: Set<string>): EngineOrder[] {
    const mine = [...this.open.values()].filter((row) => row.user_id === userId && marketIds.has(row.market_id));
    for (const row of mine) this.closeOpenOrder(batch, row.id);
    return mine;
  }

  private async retire(tx: Db, batch: Batch, work: RetireWork<unknown>): Promise<unknown> {
    const { marketIds, result } = await work(tx);
    const retiring = new Set(marketIds);
    for (const marketId of retiring) {
      const runtime = this.runtimes.get(marketId);
      // Later commands of this batch see the market as resolved and are refused.
      if (runtime) runtime.info = { ...runtime.info, status: 'RESOLVED', isResolved: true };
    }
    for (const row of [...this.open.values()]) if (retiring.has(row.market_id)) this.closeOpenOrder(batch, row.id);
    batch.afterCommit(() => {
      for (const marketId of retiring) this.dropRuntime(marketId);
    });
    return result;
  }

  private dropRuntime(marketId: string): void {
    const runtime = this.runtimes.get(marketId);
    if (!runtime) return;
    this.publisher.forget(marketId);
    this.runtimes.delete(marketId);
    this.marketOfToken.delete(runtime.info.tokenId1);
    this.marketOfToken.delete(runtime.info.tokenId2);
  }

  /** Cancels an open order (by its owner, by self-trade prevention or by expiry) and frees its reservation. */
  private closeOpenOrder(batch: Batch, orderId: string): void {
    const row = this.open.get(orderId);
    if (!row) throw new Error(`order ${orderId} is not open`);
    const runtime = this.runtimes.get(row.market_id);
    if (runtime) {
      if (row.delayed_until) runtime.delayed = runtime.delayed.filter((d) => d.orderId !== orderId);
      else if (runtime.book.cancel(orderId)) batch.touchedMarkets.add(row.market_id);
    }
    this.open.delete(orderId);
    this.releaseRemaining(batch, row);
    row.status = 'CANCELLED';
    row.delayed_until = null;
    batch.orderChanged(row);
    this.announceOrder(batch, row, 'CANCELLATION');
  }

  private releaseRemaining(batch: Batch, row: EngineOrder): void {
    const amount = reservationFor(termsOf(row), row.size_base_units - row.matched_base_units);
    if (amount === 0n) return;
    const asset = row.side === 0 ? COLLATERAL : row.token_id;
    batch.locks.release({ account: row.account, asset, amount, ref: row.id });
  }

  private expireAndRelease(batch: Batch): void {
    for (const runtime of this.runtimes.values()) {
      for (const expired of runtime.book.expireUntil(batch.nowSec)) {
        batch.touchedMarkets.add(runtime.info.id);
        this.closeExpired(batch, expired.id);
      }
      while (runtime.delayed.length > 0 && runtime.delayed[0]!.dueMs <= batch.nowMs) {
        const { orderId } = runtime.delayed.shift()!;
        const row = this.open.get(orderId);
        if (!row) continue;
        row.delayed_until = null;
        this.match(batch, runtime, row, 'UPDATE');
      }
    }
  }

  /** The book already dropped the expired order; free its reservation and record it. */
  private closeExpired(batch: Batch, orderId: string): void {
    const row = this.open.get(orderId);
    if (!row) return;
    this.open.delete(orderId);
    this.releaseRemaining(batch, row);
    row.status = 'CANCELLED';
    batch.orderChanged(row);
    this.announceOrder(batch, row, 'CANCELLATION');
  }

  private newOrderRow(batch: Batch, request: PlaceOrderRequest, info: MarketTradingInfo): OrderRow {
    const { order } = request;
    return {
      id: randomUUID(),
      user_id: request.userId,
      account: request.account,
      market_id: info.id,
      token_id: order.tokenId,
      outcome_index: order.outcome,
      side: order.side === 'BUY' ? 0 : 1,
      order_type: order.orderType,
      post_only: order.postOnly,
      status: 'PENDING',
      price_micros: BigInt(order.priceMicros),
      size_base_units: order.sizeBaseUnits,
      matched_base_units: 0n,
      salt: order.salt.toString(),
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      maker_amount: order.makerAmount.toString(),
      taker_amount: order.takerAmount.toString(),
      expiration: BigInt(order.expirationSec),
      nonce: order.nonce.toString(),
      fee_rate_bps: order.feeRateBps,
      passive_fee_rate_bps: info.passiveOrderFeeRateBps,
      signature_type: order.signatureType,
      signature: order.signature,
      hash: request.hash,
      idempotency_key: request.idempotencyKey,
      metadata: null,
      book_seq: this.nextBookSeq++,
      delayed_until: null,
      created_at: batch.now,
      updated_at: batch.now,
    };
  }

  /** The outcome label of an order of a loaded market ("" once its market is gone from the engine). */
  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string {
    const info = this.runtimes.get(row.market_id)?.info;
    return info ? (row.outcome_index === 0 ? info.outcome1 : info.outcome2) : '';
  }

  /**
   * The order's update as it stands now, sent after commit. Its details (the signed fields) may be
   * read only later in the batch (engine-order.ts), so the changing fields are taken now and the
   * message is made when it is sent.
   */
  private announceOrder(batch: Batch, row: EngineOrder, type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'): void {
    const now = { status: row.status, matched_base_units: row.matched_base_units };
    const outcome = this.outcomeLabelOf(row);
    batch.needsDetails(row);
    batch.afterCommit(() => this.options.events.publish('order-update', { userId: row.user_id, type, order: toOrderResponse({ ...detailed(row), ...now }, outcome) }));
  }


  private view(runtime: MarketRuntime, outcome: 0 | 1, timestampMs: number): OrderBookResponse {
    const levels = runtime.book.levels(outcome);
    const info = runtime.info;
    return toOrderBook({ marketId: info.id, tokenId: outcome === 0 ? info.tokenId1 : info.tokenId2, tickSize: info.tickSize, timestampMs, bids: levels.bids, asks: levels.asks });
  }

  /** The committed state of the books the batch touched; the publisher sends their changes in its next frame. */
  private publishBookChanges(batch: Batch): void {
    for (const marketId of batch.touchedMarkets) {
      const runtime = this.runtimes.get(marketId);
      if (runtime) this.publisher.committed(runtime.info, runtime.book, batch.nowMs);
    }
  }

  /** One automatic round per block: the next round starts a block after the last one started. */
  private scheduleSettlement(): void {
    if (!this.rounds.hasWork || this.settlementTimer || !this.running) return;
    const waitMs = Math.max(0, this.lastRoundMs + this.options.settlementBlockMs - performance.now());
    this.settlementTimer = setTimeout(() => {
      this.settlementTimer = undefined;
      if (this.running && this.rounds.hasWork) void this.submit({ kind: 'settle' }).catch((error) => this.options.logger.error({ err: error }, 'settlement round failed'));
    }, waitMs);
  }

  private addRuntime(info: MarketTradingInfo): MarketRuntime {
    const book = new MarketBook();
    const runtime: MarketRuntime = { info, book, delayed: [] };
    this.runtimes.set(info.id, runtime);
    this.marketOfToken.set(info.tokenId1, info.id);
    this.marketOfToken.set(info.tokenId2, info.id);
    return runtime;
  }

  /** (Re)builds every book from the store: tradable markets, open orders in time priority, last trades. */
  private async load(): Promise<void> {
    const { db } = this.options;
    this.runtimes.clear();
    this.marketOfToken.clear();
    this.open.clear();
    for (const info of await this.options.markets.loadActive()) this.addRuntime(info);
    for (const row of await loadOpenOrders(db)) {
      const runtime = this.runtimes.get(row.market_id);
      if (!runtime) continue;
      this.open.set(row.id, row);
      if (row.delayed_until) runtime.delayed.push({ orderId: row.id, dueMs: row.delayed_until.getTime() });
      else runtime.book.restore({ ...toIncoming(row), sizeBaseUnits: row.size_base_units, remainingBaseUnits: row.size_base_units - row.matched_base_units });
    }
    for (const runtime of this.runtimes.values()) this.publisher.load(runtime.info, runtime.book);
    this.publisher.retain(new Set(this.runtimes.keys()));
    this.nextBookSeq = (await maxBookSeq(db)) + 1n;
    this.nextTradeSeq = (await maxTradeSeq(db)) + 1n;
    await this.rounds.load(db, this.lastTrade, (marketId) => this.runtimes.get(marketId)?.info);
  }
}

function termsOf(row: EngineOrder): ReservationTerms {
  return { side: row.side === 0 ? 'BUY' : 'SELL', limitMicros: Number(row.price_micros), takerFeeBps: row.fee_rate_bps, makerFeeBps: row.passive_fee_rate_bps };
}

function toIncoming(row: EngineOrder): IncomingOrder {
  return {
    id: row.id,
    ownerId: row.user_id,
    outcome: row.outcome_index as 0 | 1,
    side: row.side === 0 ? 'BUY' : 'SELL',
    priceMicros: Number(row.price_micros),
    sizeBaseUnits: row.size_base_units - row.matched_base_units,
    type: row.order_type,
    postOnly: row.post_only,
    expirationSec: Number(row.expiration),
    takerFeeBps: row.fee_rate_bps,
    makerFeeBps: row.passive_fee_rate_bps,
  };
}

function isTradable(info: MarketTradingInfo): boolean {
  return info.status === 'ACTIVE' && !info.isPaused && !info.isResolved;
}

function insufficientMessage(asset: string, needed: bigint, error: InsufficientBalanceError): string {
  const what = asset === COLLATERAL ? 'collateral' : `tokens of ${asset}`;
  return `available ${what} ${formatUnits(error.available)} is less than the ${formatUnits(needed)} this order must reserve`;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];
