import { AppError } from '../contract/errors.ts';
import type { Db } from '../store/database.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import { BatchRunner, type EngineServices } from './batch-runner.ts';
import { BookPublisher } from './book-publisher.ts';
import { resultOf, type Command, type CommandResult, type WorkOutcome } from './engine-command.ts';
import { detailed, type EngineOrder } from './engine-order.ts';
import { EngineReadModel } from './engine-read-model.ts';
import type { EngineReads } from './engine-reads.ts';
import { EngineState } from './engine-state.ts';
import { GroupCommitQueue } from './group-commit-queue.ts';
import type { Journal } from './journal.ts';
import { JournalDurability } from './journal-durability.ts';
import { OrderCommands, type CancelOutcome, type RetireWork } from './order-commands.ts';
import { EngineUnavailableError, UnprojectedReadsError } from './queue-full-error.ts';
import { SettlementBesideQueue } from './settlement-beside-queue.ts';
import { SettlementRounds } from './settlement-rounds.ts';
import { SettlementSchedule } from './settlement-schedule.ts';
import type { CancelOrderOutcome, PlaceOrderOutcome, PlaceOrderRequest } from './types.ts';

export type { RetireWork } from './order-commands.ts';

export interface EngineOptions extends EngineServices {
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
   * The point of durability of order commands on the embedded store (README.md "The journal"):
   * a batch of them is answered once its record is in the journal, and the tables follow behind.
   * Without one (PostgreSQL), every batch is answered when its write to the tables commits.
   */
  journal?: Journal;
  /**
   * Settlement rounds run in a transaction of their own beside the queue, so that order batches
   * never wait for one (README.md "Settlement beside the queue"; PostgreSQL). Otherwise they run
   * in the queue (PGlite, whose one connection a round would hold anyway).
   */
  settleBesideQueue?: boolean;
}

/**
 * The single writer of the order books (DESIGN.md "engine/"): its lifecycle and command API. Every
 * command goes through one bounded group-commit queue, whose batches the BatchRunner applies and
 * makes durable before their callers are answered; `reads` is what the rest of the exchange reads
 * of the engine's memory.
 */
export class MatchingEngine {
  readonly reads: EngineReads;
  private readonly state = new EngineState();
  private readonly queue: GroupCommitQueue<Command, CommandResult>;
  private readonly publisher: BookPublisher;
  private readonly rounds: SettlementRounds;
  private readonly schedule: SettlementSchedule;
  private readonly batches: BatchRunner;
  /** Settlement rounds beside the queue (settleBesideQueue); none when they run in it. */
  private readonly besideQueue: SettlementBesideQueue | undefined;
  /** Order commands durable at the journal, the tables behind it (PGlite); none on PostgreSQL. */
  private readonly journal: JournalDurability | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(private readonly options: EngineOptions) {
    this.queue = new GroupCommitQueue<Command, CommandResult>({
      capacity: options.queueCapacity ?? 10_000,
      maxBatch: options.maxBatch ?? 500,
      processBatch: (commands) => this.batches.process(commands),
    });
    this.publisher = new BookPublisher({ events: options.events, clock: options.clock, frameMs: options.bookFrameMs });
    this.reads = new EngineReadModel(this.state, this.publisher, options.clock);
    this.rounds = new SettlementRounds({ ...options, runtimeOf: (marketId) => this.state.runtimes.get(marketId)?.info });
    this.schedule = new SettlementSchedule({
      rounds: this.rounds, logger: options.logger, blockMs: options.settlementBlockMs,
      runRound: () => this.settleRound(), running: () => this.running,
    });
    // A stopping engine projects what is left itself (stop), so a timer that fires meanwhile asks nothing.
    const requestProjection = () => (this.running ? this.submit({ kind: 'project' }) : Promise.resolve());
    this.journal = options.journal && new JournalDurability(options.db, options.journal, requestProjection, (error) => options.logger.error({ err: error }, 'engine projection failed'));
    const commands = new OrderCommands(this.state, options.events, (marketId) => {
      this.publisher.forget(marketId);
      this.state.dropRuntime(marketId);
    });
    this.batches = new BatchRunner({
      ...options, state: this.state, commands, rounds: this.rounds, publisher: this.publisher, journal: this.journal,
      afterBatch: (batch) => this.schedule.afterBatch(batch),
      halt: () => {
        this.running = false;
      },
    });
    this.besideQueue = options.settleBesideQueue ? new SettlementBesideQueue({
      ...options, rounds: this.rounds,
      balancesMoved: () => this.batches.balancesMovedBeside(),
      afterRound: ({ startedMs }) => this.schedule.afterBatch({ trades: 0, ranRound: true, startedMs }),
    }) : undefined;
  }

  /** Loads markets and open orders, then starts the timers for expiry, speed bumps and settlement. */
  async start(): Promise<void> {
    await this.journal?.recover();
    await this.batches.load();
    this.publisher.announceSnapshots();
    this.timer = setInterval(() => void this.tick().catch((error) => this.options.logger.error({ err: error }, 'engine tick failed')), 1000);
    this.timer.unref();
    this.running = true;
    this.schedule.schedule();
  }

  /**
   * Reads the stored orders' hashes into the used-hash filter, in the background (README.md "Used
   * hashes"); until it is read every new hash is looked up in the store. The boot code calls it
   * once the engine's node is up: on PGlite the read runs on this thread, and the rest of a
   * restart comes first.
   */
  readUsedHashes(): void {
    if (this.running) this.batches.usedHashes.start();
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
    this.schedule.stop();
    await this.queue.idle();
    await this.besideQueue?.idle();
    await this.journal?.project().catch((error: unknown) => {
      this.options.logger.error({ err: error }, 'the engine stopped with journal records the tables lack; the next start projects them');
    });
    await this.journal?.close();
    this.publisher.stop();
    this.state.clear();
    this.batches.forget();
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

  /** Expires due orders and releases due speed-bumped orders (the timer calls it; so does the manual clock). */
  async tick(): Promise<void> {
    if (this.running) await this.submit({ kind: 'tick' });
  }

  /**
   * Mines matched trades and confirms mined ones, as many rounds as there is work for. An
   * automatic round in flight has taken on its work when it started, so each check waits for it
   * first: without that, a call made during such a round returned with its trades still MINED.
   */
  async settle(): Promise<void> {
    for (;;) {
      await this.schedule.idle();
      if (!this.rounds.hasWork) return;
      await this.settleRound();
    }
  }

  /** One settlement round: in the queue, or beside it (settleBesideQueue). */
  private async settleRound(): Promise<void> {
    if (!this.besideQueue) {
      await this.submit({ kind: 'settle' });
      return;
    }
    if (!this.running) throw new EngineUnavailableError();
    await this.besideQueue.run();
  }

  /**
   * Resolves once the tables hold every command answered before the call (README.md "What a
   * reader sees"): a read of them that starts after it sees its caller's acknowledged writes.
   * When they cannot (the projection failed, and the engine halted with answered commands the
   * tables lack) it refuses the read with 503 rather than let it miss them.
   */
  async projected(): Promise<void> {
    try {
      if (this.running) await this.journal?.projected();
    } catch (error) {
      // The queue's own refusals (full: 503) stand; a projection that failed and then succeeded
      // (its batch rebuilt the engine) left nothing for the read to miss.
      if (error instanceof AppError) throw error;
      if (this.unprojectedCommands === 0) return;
      throw new UnprojectedReadsError(error);
    }
    if (this.unprojectedCommands > 0 && !this.running) throw new UnprojectedReadsError();
  }

  /** Commands answered from the journal and not in the tables yet (a gauge of the projection's lag). */
  get unprojectedCommands(): number {
    return this.journal?.lagCommands ?? 0;
  }

  /** Whether the filter of used order hashes is built: until then each batch looks up every new order's hash in the store. */
  get usedHashFilterReady(): boolean {
    return this.batches.usedHashes.ready;
  }

  /** Commands waiting for a batch (what fills up before the queue answers 503). */
  get queueDepth(): number {
    return this.queue.size;
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
}
