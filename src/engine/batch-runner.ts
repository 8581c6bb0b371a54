import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { isRetryable } from '../settlement/embedded/retry.ts';
import { COLLATERAL, type LockSession, type Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { writeEngineBatch, type EngineBatchWrites } from '../store/engine-batch-writes.ts';
import { findUsedHashes, readOrderHashChunk } from '../store/orders-repository.ts';
import { Batch } from './batch.ts';
import type { BookPublisher } from './book-publisher.ts';
import { movesBalancesInSql, needsProjection, type Command, type CommandResult, type WorkOutcome } from './engine-command.ts';
import { fillInDetails } from './engine-order.ts';
import type { EngineState } from './engine-state.ts';
import { TABLES_ALONE, type JournalDurability, type TablesThroughJournal } from './journal-durability.ts';
import type { MarketDirectory } from './market-directory.ts';
import type { OrderCommands, RetireWork, UsedKeys } from './order-commands.ts';
import { FencedError } from './queue-full-error.ts';
import type { SettlementRounds } from './settlement-rounds.ts';
import { UsedHashFilter } from './used-hash-filter.ts';

const MAX_BATCH_ATTEMPTS = 3;

/** What the engine works with: its store, ledger, clock, event bus, catalogue and log. */
export interface EngineServices {
  db: Db;
  settlement: Settlement;
  clock: Clock;
  events: DomainEvents;
  markets: MarketDirectory;
  logger: FastifyBaseLogger;
  /** This node's hold on the engine (src/cluster/leadership.ts): a node that lost it writes nothing more. */
  fence?: EngineFence;
}

/** The engine lease, as the engine's writes check it (LeaseLeadership; none on a store of one process). */
export interface EngineFence {
  /**
   * Runs first inside a batch transaction: throws FencedError unless this node still holds the
   * engine, and share-locks the lease until the commit (no takeover commits meanwhile).
   */
  fence(tx: Db): Promise<void>;
  /** For a batch written in one statement, which checks the lease itself: throws FencedError unless this node holds it now. */
  statementFence(): StatementFence;
}

export interface StatementFence {
  /** The lease's token the statement must find (store/engine-batch-writes.ts). */
  readonly token: bigint;
  /** What the statement found: the lease still held, or passed to another node. */
  checked(held: boolean): void;
}

/**
 * The lease passed to another node between a batch's start and its write: the batch applied its
 * commands to memory and wrote nothing, so memory must be rebuilt before the node steps down.
 */
class FencedAtWrite extends FencedError {}

export interface BatchRunnerOptions extends EngineServices {
  state: EngineState;
  commands: OrderCommands;
  rounds: SettlementRounds;
  publisher: BookPublisher;
  /** Order commands durable at the journal, the tables behind it (PGlite); none on PostgreSQL. */
  journal: JournalDurability | undefined;
  /** After a batch is durable and announced (SettlementSchedule.afterBatch). */
  afterBatch(batch: { trades: number; ranRound: boolean; startedMs: number }): void;
  /** The engine can no longer back its memory with the store and the journal: it takes no more commands. */
  halt(): void;
}

/**
 * Runs the engine's batches (README.md "Invariants"): applies each command to the books in memory
 * and to the ledger, makes the batch durable (its one statement or transaction in the tables, or
 * the journal on PGlite), and only then answers and announces it. A batch that fails rebuilds
 * memory from the store before anything else runs.
 */
export class BatchRunner {
  /**
   * The balance rows the engine reserves from, kept between batches: the engine's node is their
   * only writer (moveBalances), so a batch reads only the rows it does not hold yet. Forgotten
   * whenever balances move in SQL and whenever a batch fails.
   */
  private readonly held;
  /** The tables through the journal's records they do not hold yet (the tables alone without one). */
  private readonly tables: TablesThroughJournal;
  /** Which new orders' hashes the store may hold: a batch looks up only those. */
  readonly usedHashes: UsedHashFilter;
  /** A settlement round beside the queue moved balances since the last batch began: the held rows are read again. */
  private balancesMoved = false;

  constructor(private readonly options: BatchRunnerOptions) {
    this.held = options.settlement.heldBalances();
    this.tables = options.journal ?? TABLES_ALONE;
    this.usedHashes = new UsedHashFilter({
      readChunk: (limit, after) => readOrderHashChunk(options.db, limit, after),
      unprojected: () => this.tables.orderHashes(),
      onError: (error) => options.logger.error({ err: error }, 'reading the used-hash filter failed; every new order hash is looked up in the store'),
    });
  }

  /** (Re)builds every book from the store, hands them to the publisher, and loads the last trades. */
  async load(): Promise<void> {
    const { db, state, publisher, rounds, markets } = this.options;
    await state.load(db, markets);
    for (const runtime of state.runtimes.values()) publisher.load(runtime.info, runtime.book);
    publisher.retain(new Set(state.runtimes.keys()));
    await rounds.load(db, state.lastTrade);
  }

  /**
   * A settlement round beside the queue committed. It only ever added to what users have
   * available, so a batch in flight on the rows it held reserves conservatively; the next batch
   * forgets them and reads them again.
   */
  balancesMovedBeside(): void {
    this.balancesMoved = true;
  }

  /** The engine stopped: another node may write balances and store orders now. */
  forget(): void {
    this.held.forget();
    this.usedHashes.stop();
  }

  /**
   * A failed commit leaves memory ahead of the store: rebuild the books from the store, and run the
   * batch again when PostgreSQL aborted it only as a deadlock or serialization victim.
   */
  async process(commands: Command[]): Promise<CommandResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(commands);
      } catch (error) {
        // The batch may have flushed reservations into the held rows that did not commit.
        this.held.forget();
        // Fenced before anything is applied, memory is as it was; no retry can pass a fence.
        if (error instanceof FencedError && !(error instanceof FencedAtWrite)) throw error;
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
   * halts (503 to every command), and a restart recovers from the journal and the tables. Without
   * one, the next failed batch loads again.
   */
  private async rebuild(): Promise<void> {
    try {
      await this.options.journal?.project();
      await this.load();
    } catch (error) {
      if (!this.options.journal) throw error;
      this.options.halt();
      this.options.logger.fatal({ err: error }, 'the engine cannot rebuild its books from the store and the journal; it takes no more commands until restarted');
      throw error;
    }
  }

  /**
   * A batch that moves balances in SQL commits in a transaction, its SQL and the engine's writes
   * together. A batch of order commands writes one statement and no transaction: with a journal,
   * it is answered once its record is durable there; without one (or when large enough to skip
   * it), once its one statement, which fences itself, committed. A batch that a reader waits for
   * first brings the tables up to the journal.
   */
  private async run(commands: Command[]): Promise<CommandResult[]> {
    // Between two batches nothing reads the tables: records due for them start on their way there.
    this.options.journal?.batchStarts();
    try {
      return await this.runStarted(commands);
    } finally {
      this.options.journal?.batchEnded();
    }
  }

  private async runStarted(commands: Command[]): Promise<CommandResult[]> {
    if (this.balancesMoved) {
      this.balancesMoved = false;
      this.held.forget();
    }
    const journal = this.options.journal;
    if (journal && (commands.some(needsProjection) || journal.full)) await journal.project();
    if (commands.some(movesBalancesInSql)) return this.commitInTransaction(commands);
    if (journal && !journal.commitsDirectly(commands.length)) return this.commitOutsideTransaction(commands, (writes) => journal.append(writes, commands.length));
    // Taken before anything is applied: a node that no longer holds the lease fails with memory as it was.
    const fence = this.options.fence?.statementFence();
    return this.commitOutsideTransaction(commands, async (writes) => {
      const held = await writeEngineBatch(this.options.db, writes, fence && { leaseToken: fence.token });
      fence?.checked(held);
      if (!held) throw new FencedAtWrite();
    });
  }

  private async commitInTransaction(commands: Command[]): Promise<CommandResult[]> {
    // Wall-clock time, not the injected clock: this measures the batch, it decides nothing.
    const startedMs = performance.now();
    const batch = new Batch(this.options.clock.nowMs());
    const results = await this.options.db.transaction().execute(async (tx) => {
      await this.options.fence?.fence(tx);
      const used = await this.takenKeys(tx, commands);
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
    this.committed(commands, batch, startedMs);
    return results;
  }

  /**
   * A batch of order commands, which moves no balance in SQL: it reads the tables (through what
   * the journal holds beyond them), and is answered once `makeDurable` made what it changed
   * durable, in one write: a journal record, or one statement.
   */
  private async commitOutsideTransaction(commands: Command[], makeDurable: (writes: EngineBatchWrites) => Promise<void>): Promise<CommandResult[]> {
    const startedMs = performance.now();
    const batch = new Batch(this.options.clock.nowMs());
    const db = this.options.db;
    const used = await this.takenKeys(db, commands);
    batch.locks = await this.openLocks(db, commands);
    const results: CommandResult[] = [];
    for (const command of commands) results.push(await this.apply(db, batch, command, used));
    await fillInDetails(db, batch.ordersToDetail);
    const writes = batch.takeWrites();
    if (hasWrites(writes)) await makeDurable(writes);
    this.committed(commands, batch, startedMs);
    return results;
  }

  /** After a batch is durable: its book changes and events go out, and settlement learns of its trades. */
  private committed(commands: Command[], batch: Batch, startedMs: number): void {
    const { state, publisher, events } = this.options;
    for (const marketId of batch.touchedMarkets) {
      const runtime = state.runtimes.get(marketId);
      if (runtime) publisher.committed(runtime.info, runtime.book, batch.nowMs);
    }
    this.usedHashes.add(batch.newOrderHashes());
    batch.publish();
    const ranRound = commands.some((c) => c.kind === 'settle');
    events.publish('engine-batch', { commands: commands.length, trades: batch.trades.length, durationMs: performance.now() - startedMs, settled: ranRound });
    this.options.afterBatch({ trades: batch.trades.length, ranRound, startedMs });
  }

  /** Commands read stored orders through the journal's waiting records (none wait in a transaction's batch: run). */
  private async apply(tx: Db, batch: Batch, command: Command, used: UsedKeys): Promise<CommandResult> {
    const { commands } = this.options;
    switch (command.kind) {
      case 'place':
        return commands.place(this.tables.orders(tx), batch, command.request, used);
      case 'cancel':
        return commands.cancel(this.tables.orders(tx), batch, command.userId, command.orderId);
      case 'cancel-markets':
        return { ok: true, cancelled: commands.cancelUserOrders(batch, command.userId, new Set(command.marketIds)) };
      case 'retire': {
        // Only the work is rolled back when it throws: the engine's memory changes after it.
        const outcome = await isolated(tx, command.work);
        if (!outcome.ok) return outcome;
        const { marketIds, result } = outcome.result as Awaited<ReturnType<RetireWork<unknown>>>;
        commands.retire(batch, marketIds);
        return { ok: true, result };
      }
      case 'ledger':
        return isolated(tx, command.work);
      case 'tick':
        commands.expireAndRelease(batch);
        return { ok: true };
      case 'settle':
        await this.options.rounds.run(tx, batch);
        return { ok: true };
      case 'project':
        // The batch brought the tables up to the journal before its first command.
        return { ok: true };
    }
  }

  /** Locks and reads, once, the balances this batch's new orders reserve from. */
  private openLocks(tx: Db, commands: Command[]): Promise<LockSession> {
    const keys = commands.flatMap((c) => (c.kind === 'place' ? [{ account: c.request.account, asset: c.request.order.side === 'BUY' ? COLLATERAL : c.request.order.tokenId }] : []));
    return this.options.settlement.openLockSession(tx, keys, this.held, this.tables);
  }

  /**
   * Hashes of this batch's new orders already used by stored orders (the journal's included): one
   * query for those the filter cannot rule out, none when it rules out all.
   */
  private async takenKeys(tx: Db, commands: Command[]): Promise<UsedKeys> {
    const hashes = commands.flatMap((c) => (c.kind === 'place' ? [c.request.hash] : []));
    const used = await findUsedHashes(tx, this.usedHashes.mayBeStored(hashes));
    for (const hash of hashes) if (this.tables.hasHash(hash)) used.add(hash);
    return { hashes: used, idempotency: new Map() };
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
    // A lost lease or a deadlock victim fails the whole batch (process retries the latter).
    if (error instanceof FencedError || isRetryable(error)) throw error;
    await sql`ROLLBACK TO SAVEPOINT engine_work`.execute(tx);
    return { ok: false, error };
  }
}

const hasWrites = (writes: EngineBatchWrites) => writes.lockChanges.length + writes.newOrders.length + writes.changedOrders.length + writes.trades.length > 0;
