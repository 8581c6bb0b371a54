import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { RestingQuote } from '../core/rewards/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { isRetryable } from '../settlement/embedded/retry.ts';
import { COLLATERAL, type HeldBalances, type LockSession, type Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import type { EngineBatchWrites } from '../store/engine-batch-writes.ts';
import { findUsedHashes, type OrderRow } from '../store/orders-repository.ts';
import { Batch } from './batch.ts';
import { BookPublisher } from './book-publisher.ts';
import { toOrderBook, type OrderBookResponse } from './book-view.ts';
import { detailed, fillInDetails, type EngineOrder } from './engine-order.ts';
import type { EngineReads } from './engine-reads.ts';
import { EngineState, type LastTrade } from './engine-state.ts';
import { GroupCommitQueue } from './group-commit-queue.ts';
import type { Journal } from './journal.ts';
import { JournalDurability } from './journal-durability.ts';
import type { MarketDirectory } from './market-directory.ts';
import { OrderCommands, type CancelOutcome, type RetireWork, type UsedKeys } from './order-commands.ts';
import { PendingProjection } from './pending-projection.ts';
import { EngineUnavailableError, FencedError } from './queue-full-error.ts';
import { SettlementRounds } from './settlement-rounds.ts';
import type { CancelOrderOutcome, MarketTradingInfo, PlaceOrderOutcome, PlaceOrderRequest } from './types.ts';

export type { RetireWork } from './order-commands.ts';

const MAX_BATCH_ATTEMPTS = 3;

type Command =
  | { kind: 'place'; request: PlaceOrderRequest }
  | { kind: 'cancel'; userId: string; orderId: string }
  | { kind: 'cancel-markets'; userId: string; marketIds: string[] }
  | { kind: 'retire'; work: RetireWork<unknown> }
  | { kind: 'ledger'; work: (tx: Db) => Promise<unknown> }
  | { kind: 'tick' }
  | { kind: 'settle' }
  | { kind: 'project' };

type CommandResult = PlaceOrderOutcome | CancelOutcome | { ok: true; cancelled: EngineOrder[] } | { ok: true } | WorkOutcome;

/** What work run inside a batch gave: its result, or the error it threw (its changes rolled back). */
type WorkOutcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** Commands whose work moves balances in SQL: the batch's reservations are written before them and read again after. */
const movesBalancesInSql = (command: Command) => command.kind === 'settle' || command.kind === 'ledger' || command.kind === 'retire';

/**
 * Commands that need the tables to hold every journal record first: those that move balances in
 * SQL read and write the tables directly, and `project` is a reader's request for them.
 */
const needsProjection = (command: Command) => movesBalancesInSql(command) || command.kind === 'project';

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
  /**
   * The point of durability of order commands on the embedded store (README.md "The journal"):
   * a batch of them is answered once its record is in the journal, and the tables follow behind.
   * Without one (PostgreSQL), every batch is answered when its transaction commits.
   */
  journal?: Journal;
}

/**
 * The single writer of the order books (DESIGN.md "engine/"). Every command goes through one
 * bounded group-commit queue: a batch is applied to the in-memory books and the ledger inside one
 * database transaction, and callers are answered and events published only after it commits.
 * If a commit fails the books are rebuilt from the store, so memory never runs ahead of it.
 */
export class MatchingEngine implements EngineReads {
  private readonly state = new EngineState();
  private readonly commands: OrderCommands;
  private readonly queue: GroupCommitQueue<Command, CommandResult>;
  private readonly rounds: SettlementRounds;
  private readonly publisher: BookPublisher;
  /**
   * The balance rows the engine reserves from, kept between batches: the engine's node is their
   * only writer (moveBalances), so a batch reads only the rows it does not hold yet. Forgotten
   * whenever balances move in SQL and whenever a batch fails.
   */
  private readonly held: HeldBalances;
  /** Order commands durable at the journal, the tables behind it (PGlite); none on PostgreSQL. */
  private readonly journal: JournalDurability | undefined;
  /** The journal's records the tables do not hold yet (always none without one): a batch reads the tables through it. */
  private readonly pending: PendingProjection;
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
    this.rounds = new SettlementRounds({ ...options, runtimeOf: (marketId) => this.state.runtimes.get(marketId)?.info });
    this.held = options.settlement.heldBalances();
    // A stopping engine projects what is left itself (stop), so a timer that fires meanwhile asks nothing.
    const requestProjection = () => (this.running ? this.submit({ kind: 'project' }) : Promise.resolve());
    this.journal = options.journal && new JournalDurability(options.db, options.journal, requestProjection, (error) => options.logger.error({ err: error }, 'engine projection failed'));
    this.pending = this.journal?.pending ?? new PendingProjection();
    this.publisher = new BookPublisher({ events: options.events, clock: options.clock, frameMs: options.bookFrameMs });
    this.commands = new OrderCommands(this.state, options.events, (marketId) => {
      this.publisher.forget(marketId);
      this.state.dropRuntime(marketId);
    });
  }

  /** Loads markets and open orders, then starts the timers for expiry, speed bumps and settlement. */
  async start(): Promise<void> {
    await this.journal?.recover();
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
    await this.journal?.project();
    await this.journal?.close();
    this.publisher.stop();
    this.state.clear();
    this.held.forget();
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
    for (const row of this.state.open.values()) if (row.user_id === userId) markets.add(row.market_id);
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

  /**
   * Resolves once the tables hold every command answered before the call (README.md "What a
   * reader sees"): a read of them that starts after it sees its caller's acknowledged writes.
   */
  async projected(): Promise<void> {
    if (this.running) await this.journal?.projected();
  }

  /** Commands answered from the journal and not in the tables yet (a gauge of the projection's lag). */
  get unprojectedCommands(): number {
    return this.pending.commands;
  }

  /** Whether a market is loaded: every published, unresolved market is. */
  hasMarket(marketId: string): boolean {
    return this.state.runtimes.has(marketId);
  }

  /** Adds or refreshes a market after the catalogue changed it (publish, pause, fees, tick). */
  async refreshMarket(marketId: string): Promise<void> {
    const info = await this.options.markets.load(marketId);
    if (info?.status !== 'ACTIVE') return;
    const existing = this.state.runtimes.get(marketId);
    if (existing) existing.info = info;
    else this.publisher.load(info, this.state.addRuntime(info).book);
  }

  /**
   * Stops trading markets for good (platform resolution). Inside one engine transaction, `work`
   * records the resolution and names the markets it resolved; the engine then cancels every open
   * order of those markets (releasing their reservations, users told by `order-update`), so no order
   * can slip in between. After the commit their books are published empty and dropped from memory;
   * `refreshMarket` and restarts never load them again because they are no longer ACTIVE. If `work`
   * throws, its statements are rolled back and its caller gets the error: nothing changed.
   */
  async retireMarkets<T>(work: RetireWork<T>): Promise<T> {
    return resultOf<T>((await this.submit({ kind: 'retire', work })) as WorkOutcome);
  }

  /**
   * Runs work that moves balances (credits, transfers, splits, merges, redemptions, bonds) inside
   * an engine batch: the engine's node is the only writer of balances, so what the engine reserves
   * from never changes under it (README "One writer of balances"). The work runs under a savepoint:
   * when it throws, its changes are rolled back, its caller gets the error, and the rest of the
   * batch goes on.
   */
  async moveBalances<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return resultOf<T>((await this.submit({ kind: 'ledger', work })) as WorkOutcome);
  }

  /** The loaded market trading this token: every published market that has not resolved. */
  marketForToken(tokenId: string): MarketTradingInfo | undefined {
    return this.state.runtimeOfToken(tokenId)?.runtime.info;
  }

  /** The live book of a token (read your writes: every acknowledged order is in it). */
  orderBook(tokenId: string): OrderBookResponse | undefined {
    const found = this.state.runtimeOfToken(tokenId);
    if (!found) return undefined;
    const { runtime: { info, book }, outcome } = found;
    const levels = book.levels(outcome);
    return toOrderBook({ marketId: info.id, tokenId, tickSize: info.tickSize, timestampMs: this.options.clock.nowMs(), bids: levels.bids, asks: levels.asks });
  }

  /**
   * The committed book with its seq, for real-time snapshots (a change waiting for its frame is
   * published first: BookPublisher.snapshot).
   */
  bookSnapshot(tokenId: string): (OrderBookResponse & { seq: number }) | undefined {
    const found = this.state.runtimeOfToken(tokenId);
    return found && this.publisher.snapshot(found.runtime.info.id, found.outcome);
  }

  /**
   * Every order resting in a book (speed-bumped orders are not yet), grouped by market, in its own
   * token's terms: what reward sampling scores. One pass over the open orders for all markets.
   */
  restingOrdersByMarket(): Map<string, RestingQuote[]> {
    const byMarket = new Map<string, RestingQuote[]>();
    for (const row of this.state.open.values()) {
      const resting = this.state.runtimes.get(row.market_id)?.book.get(row.id);
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
    return { books: this.state.runtimes.size, levels: this.publisher.levelCount(), openOrders: this.state.open.size };
  }

  lastTradePrice(tokenId: string): LastTrade | undefined {
    return this.state.lastTrade.get(tokenId);
  }

  outcomeLabelOf(row: Pick<OrderRow, 'market_id' | 'outcome_index'>): string {
    return this.state.outcomeLabelOf(row);
  }

  /**
   * A failed commit leaves memory ahead of the store: rebuild the books from the store, and run the
   * batch again when PostgreSQL aborted it only as a deadlock or serialization victim.
   */
  private async processBatch(commands: Command[]): Promise<CommandResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.runBatch(commands);
      } catch (error) {
        // The batch may have flushed reservations into the held rows that did not commit.
        this.held.forget();
        // The fence runs before anything is applied: memory is as it was, and no retry can pass it.
        if (error instanceof FencedError) throw error;
        this.options.logger.error({ err: error, attempt }, 'engine batch failed; rebuilding books from the store');
        await this.rebuild();
        if (attempt >= MAX_BATCH_ATTEMPTS || !isRetryable(error)) throw error;
      }
    }
  }

  /**
   * Memory is ahead of what is durable: the tables take the journal's records (durable and
   * answered), then the books are loaded from them. With a journal, an engine that cannot do that
   * (its store or journal failing) must not go on answering from memory that neither backs: it
   * stops taking commands (503), and a restart recovers from the journal and the tables. Without
   * one, the next failed batch loads again.
   */
  private async rebuild(): Promise<void> {
    try {
      await this.journal?.project();
      await this.load();
    } catch (error) {
      if (!this.journal) throw error;
      this.running = false;
      this.options.logger.fatal({ err: error }, 'the engine cannot rebuild its books from the store and the journal; it takes no more commands until restarted');
      throw error;
    }
  }

  /**
   * With a journal, a batch of order commands is answered once its record is durable there; a
   * batch that moves balances in SQL, or that a reader waits for, first brings the tables up to
   * the journal and then commits in its own transaction, as every batch does without a journal.
   */
  private async runBatch(commands: Command[]): Promise<CommandResult[]> {
    const journal = this.journal;
    if (!journal) return this.commitBatch(commands);
    if (commands.some(needsProjection) || journal.full) await journal.project();
    if (commands.some(movesBalancesInSql) || journal.commitsDirectly(commands.length)) return this.commitBatch(commands);
    return this.journalBatch(journal, commands);
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
        // Settle rounds, ledger work and retirements move balances in SQL: write the batch's
        // reservations first, and after them write what they released (a retirement cancels
        // orders) and read the balances again for the commands still to come.
        if (movesBalancesInSql(command)) await batch.locks.flush();
        applied.push(await this.apply(tx, batch, command, used));
        if (movesBalancesInSql(command)) {
          await batch.locks.flush();
          this.held.forget();
          batch.locks = await this.openLocks(tx, commands.slice(i + 1));
        }
      }
      await fillInDetails(tx, batch.ordersToDetail);
      await batch.write(tx);
      return applied;
    });
    await this.committed(commands, batch, startedMs);
    return results;
  }

  /**
   * A batch of order commands answered at the journal: it reads the tables through what the
   * journal holds beyond them, appends what it changed as one record, and is answered once the
   * record is durable; the tables take it with the next projection.
   */
  private async journalBatch(journal: JournalDurability, commands: Command[]): Promise<CommandResult[]> {
    const startedMs = performance.now();
    const batch = new Batch(this.options.clock.nowMs());
    const db = this.options.db;
    const used = await this.usedHashes(db, commands);
    batch.locks = await this.openLocks(db, commands);
    const results: CommandResult[] = [];
    for (const command of commands) results.push(await this.apply(db, batch, command, used));
    await fillInDetails(db, batch.ordersToDetail);
    const writes = batch.takeWrites();
    if (hasWrites(writes)) await journal.append(writes, commands.length);
    await this.committed(commands, batch, startedMs);
    return results;
  }

  /** After a batch is durable: its book changes and events go out, and settlement learns of its trades. */
  private async committed(commands: Command[], batch: Batch, startedMs: number): Promise<void> {
    this.publishBookChanges(batch);
    batch.publish();
    this.options.events.publish('engine-batch', { commands: commands.length, trades: batch.trades.length, durationMs: performance.now() - startedMs });
    if (batch.trades.length > 0) this.rounds.noteMatched();
    if (commands.some((c) => c.kind === 'settle')) {
      this.lastRoundMs = startedMs;
      await this.sealBlock();
    }
    this.scheduleSettlement();
  }


  /** Trades mined by a settle round go into a block; the next round confirms them. */
  private async sealBlock(): Promise<void> {
    try {
      await this.options.settlement.sealBlock();
    } catch (error) {
      this.options.logger.error({ err: error }, 'sealing a settlement block failed; the next round seals it');
    }
  }

  /** Commands read stored orders through the journal's waiting records (none wait in a transaction's batch: runBatch). */
  private async apply(tx: Db, batch: Batch, command: Command, used: UsedKeys): Promise<CommandResult> {
    switch (command.kind) {
      case 'place':
        return this.commands.place(this.pending.orders(tx), batch, command.request, used);
      case 'cancel':
        return this.commands.cancel(this.pending.orders(tx), batch, command.userId, command.orderId);
      case 'cancel-markets':
        return { ok: true, cancelled: this.commands.cancelUserOrders(batch, command.userId, new Set(command.marketIds)) };
      case 'retire': {
        // Only the work is rolled back when it throws: the engine's memory changes after it.
        const outcome = await isolated(tx, command.work);
        if (!outcome.ok) return outcome;
        const { marketIds, result } = outcome.result as Awaited<ReturnType<RetireWork<unknown>>>;
        this.commands.retire(batch, marketIds);
        return { ok: true, result };
      }
      case 'ledger':
        return isolated(tx, command.work);
      case 'tick':
        this.commands.expireAndRelease(batch);
        return { ok: true };
      case 'settle':
        await this.rounds.run(tx, batch);
        return { ok: true };
      case 'project':
        // The batch brought the tables up to the journal before its first command.
        return { ok: true };
    }
  }

  /** Locks and reads, once, the balances this batch's new orders reserve from. */
  private openLocks(tx: Db, commands: Command[]): Promise<LockSession> {
    const keys = commands.flatMap((c) => (c.kind === 'place' ? [{ account: c.request.account, asset: c.request.order.side === 'BUY' ? COLLATERAL : c.request.order.tokenId }] : []));
    return this.options.settlement.openLockSession(tx, keys, this.held, this.pending.unprojectedLocked);
  }

  /** Hashes of this batch's new orders already used by stored orders (the journal's included), in one query. */
  private async usedHashes(tx: Db, commands: Command[]): Promise<UsedKeys> {
    const hashes = commands.flatMap((c) => (c.kind === 'place' ? [c.request.hash] : []));
    const used = await findUsedHashes(tx, hashes);
    for (const hash of hashes) if (this.pending.hasHash(hash)) used.add(hash);
    return { hashes: used, idempotency: new Map() };
  }

  /** The committed state of the books the batch touched; the publisher sends their changes in its next frame. */
  private publishBookChanges(batch: Batch): void {
    for (const marketId of batch.touchedMarkets) {
      const runtime = this.state.runtimes.get(marketId);
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

  /** (Re)builds every book from the store, hands them to the publisher, and loads the last trades. */
  private async load(): Promise<void> {
    await this.state.load(this.options.db, this.options.markets);
    for (const runtime of this.state.runtimes.values()) this.publisher.load(runtime.info, runtime.book);
    this.publisher.retain(new Set(this.state.runtimes.keys()));
    await this.rounds.load(this.options.db, this.state.lastTrade);
  }
}

/**
 * Runs work under a savepoint of the batch transaction: if it throws, only its own statements are
 * rolled back and the error becomes its outcome, so one caller's refused split or failed
 * resolution never fails the other commands of the batch.
 */
async function isolated(tx: Db, work: (tx: Db) => Promise<unknown>): Promise<WorkOutcome> {
  await sql`SAVEPOINT engine_work`.execute(tx);
  try {
    const result = await work(tx);
    await sql`RELEASE SAVEPOINT engine_work`.execute(tx);
    return { ok: true, result };
  } catch (error) {
    // A lost lease or a deadlock victim fails the whole batch (processBatch retries the latter).
    if (error instanceof FencedError || isRetryable(error)) throw error;
    await sql`ROLLBACK TO SAVEPOINT engine_work`.execute(tx);
    return { ok: false, error };
  }
}

function resultOf<T>(outcome: WorkOutcome): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.result as T;
}

const hasWrites = (writes: EngineBatchWrites) => writes.lockChanges.length + writes.newOrders.length + writes.changedOrders.length + writes.trades.length > 0;
