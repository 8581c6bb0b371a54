import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { OracleCommand } from '../core/oracle/state-machine.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import type { OrderRow } from '../store/orders-repository.ts';
import { findOrdersByIds, readOrderHashChunk } from '../store/orders-repository.ts';
import { proxyWalletsAmong } from '../store/users-repository.ts';
import { Admission, type PlaceAnswer } from './admission.ts';
import { Announcer } from './announcer.ts';
import { BookPublisher } from './book-publisher.ts';
import { ChainSettlement, type ChainSettlementOptions } from './chain-settlement/chain-settlement.ts';
import { ChainIndexer, type ChainIndexOptions } from './chain-index/chain-indexer.ts';
import { EngineReadModel } from './engine-read-model.ts';
import type { EngineReads } from './engine-reads.ts';
import { genesisState } from './genesis.ts';
import type { EngineStore } from './journal/journal-store.ts';
import type { MarketDirectory } from './market-directory.ts';
import { OrderDetails } from './order-details.ts';
import { orderRow } from './projection/rows.ts';
import { Projector } from './projection/projector.ts';
import { UnprojectedRecords } from './projection/unprojected-records.ts';
import { EngineUnavailableError, FencedError, QueueFullError, StateLoadingError } from './queue-full-error.ts';
import { Follower } from './follower.ts';
import { SeqWatch } from './seq-watch.ts';
import { recoverState } from './recovery.ts';
import { Sequencer, type Answer } from './sequencer.ts';
import { SafetyDeadlines } from './safety-deadlines.ts';
import { SettlementSchedule } from './settlement-schedule.ts';
import { DEFAULT_SNAPSHOT_POLICY, Snapshotter, type SnapshotPolicy } from './snapshotter.ts';
import type { AppliedRecord } from './state/apply.ts';
import type { MergeOutcome, RedeemOutcome } from './state/balance-commands.ts';
import type { CommandFields, CommandOf, EngineCommand, OutcomeOf } from './state/commands.ts';
import { EngineState } from './state/engine-state.ts';
import { encodeSnapshot } from './state/snapshot-codec.ts';
import type { CatalogueTerms, OracleCommandOutcome } from './state/oracle-commands.ts';
import type { MmpScope, MmpSetting } from './state/maker-safety.ts';
import type { MmpSettingInput } from './state/safety-commands.ts';
import type { EngineOrder, NewOrder } from './state/types.ts';
import type { EngineFailure } from './state/apply-context.ts';
import { UnannouncedRecords, type AnnouncedRecords } from './unannounced-records.ts';
import { UsedHashFilter } from './used-hash-filter.ts';

/** Commands durable and not in the tables beyond which new commands are refused (503). */
const MAX_PROJECTION_LAG = 50_000;
/** Commands since the last snapshot written beyond which new commands are refused (503): a restart's replay stays bounded. */
const MAX_UNSNAPSHOTTED = 2_000_000;
/** A rebuild's reads from the store are tried again after this pause, doubling up to a second. */
const REBUILD_FIRST_PAUSE_MS = 50;
const REBUILD_MAX_PAUSE_MS = 1000;

export interface EngineOptions {
  db: Db;
  store: EngineStore;
  clock: Clock;
  events: DomainEvents;
  markets: MarketDirectory;
  logger: FastifyBaseLogger;
  /** The least time between two publications of a book's changes (BOOK_FRAME_MS). */
  bookFrameMs: number;
  /** Least time between the starts of two automatic settlement rounds (SETTLEMENT_BLOCK_MS). */
  settlementBlockMs: number;
  queueCapacity?: number;
  maxBatch?: number;
  snapshotPolicy?: SnapshotPolicy;
  /** Settles trades on a real chain (CHAIN≠none) instead of the simulated rounds. */
  chainSettlement?: ChainSettlementOptions;
  /** Follows the chain's transfers into and out of users' wallets (CHAIN=embedded; chain-index/README.md). */
  chainIndex?: ChainIndexOptions;
  /**
   * Hears of appends and projections as other nodes commit them (PostgreSQL's notifications,
   * store/journal-listener.ts); a standby follows the journal without it too, by polling.
   */
  listen?(handlers: { appended(seq: bigint): void; projected(seq: bigint): void; lost(error: unknown): void }): Promise<{ close(): Promise<void> }>;
  /** Which records the engine's node announced, heard by a standby (other nodes' subscribers get their events through it): a takeover announces the rest. */
  announced?: AnnouncedRecords;
  /**
   * Which of these nodes are alive (src/cluster/README.md "Presence"): their cancel-on-disconnect
   * sockets are kept while they name them again after a takeover. Without it, none is.
   */
  presentNodes?(nodes: readonly string[]): Promise<string[]>;
}

/** What an order command is answered, as rows (the API's shapes are made from them), with the record that made it durable. */
export type PlaceResult = ({ ok: true; order: OrderRow; replayed: boolean } | (EngineFailure & { order?: OrderRow })) & { seq: bigint };
export type CancelResult = ({ ok: true; order: OrderRow } | EngineFailure) & { seq: bigint };

/**
 * The matching engine (DESIGN.md "engine/", README.md): the single writer of the exchange's state.
 * Its state lives in memory and is a deterministic function of its journal; every change is a
 * command of a record of that journal, answered once the record is durable, then announced, and
 * written into the tables behind. This class is its lifecycle and its command API.
 */
export class MatchingEngine {
  readonly reads: EngineReads;
  private state = new EngineState();
  private readonly unprojected = new UnprojectedRecords();
  private readonly publisher: BookPublisher;
  private readonly details: OrderDetails;
  private readonly announcer: Announcer;
  private readonly projector: Projector;
  private readonly sequencer: Sequencer;
  private readonly snapshotter: Snapshotter;
  private readonly schedule: SettlementSchedule;
  private readonly deadlines: SafetyDeadlines;
  private readonly follower: Follower;
  private readonly unannounced: UnannouncedRecords | undefined;
  /** Trades settle on a real chain (chain-settlement/README.md); without it, in simulated rounds. */
  private readonly chain: ChainSettlement | undefined;
  private readonly chainIndexer: ChainIndexer | undefined;
  /** How far the tables are: what this node's projector wrote, or what a standby saw. */
  private readonly projected = new SeqWatch();
  readonly usedHashes: UsedHashFilter;
  private timer: NodeJS.Timeout | undefined;
  private listener: { close(): Promise<void> } | undefined;
  /** Leading: this node runs the engine and takes commands. Following: a standby applying the journal. */
  private mode: 'stopped' | 'following' | 'leading' = 'stopped';
  /** Set while the state is rebuilt from the store (`rebuild`): it is ahead of the journal, so nothing of it is served. */
  private rebuilding = false;
  /** How many times the state was replaced by the journal's: what a wait for a record to be durable checks, since a rebuild drops it. */
  private rebuilds = 0;
  /** The last durable record: the journal's head as this engine knows it. */
  private head = { seq: 0n, hash: '', atMs: 0 };

  constructor(private readonly options: EngineOptions) {
    const { db, store, events, clock, logger } = options;
    this.publisher = new BookPublisher({ events, clock, frameMs: options.bookFrameMs });
    this.details = new OrderDetails(db);
    this.reads = new EngineReadModel(() => this.state, this.publisher, clock, this.unprojected, () => this.leadingParts);
    this.announcer = new Announcer({ db, events, publisher: this.publisher, details: this.details, logger, state: () => this.state });
    this.usedHashes = new UsedHashFilter({
      readChunk: (limit, after) => readOrderHashChunk(db, limit, after),
      unprojected: () => this.unprojected.orderHashes(),
      onError: (error) => logger.error({ err: error }, 'reading the used-hash filter failed; every new order hash is looked up in the store'),
    });
    this.projector = new Projector({
      records: this.unprojected,
      projected: this.projected,
      write: (merged) => store.project(merged),
      readProjectedSeq: () => store.projectedSeq(),
      wrote: (merged) => {
        if (merged) this.announcer.projected(merged);
      },
      logger,
    });
    this.snapshotter = new Snapshotter({ store, policy: options.snapshotPolicy ?? DEFAULT_SNAPSHOT_POLICY, logger, nowMs: () => clock.nowMs() });
    this.sequencer = new Sequencer({
      state: () => this.state,
      admission: new Admission({ db, unprojected: this.unprojected, usedHashes: this.usedHashes }),
      clock,
      append: (records) => store.append(records),
      capacity: options.queueCapacity ?? 10_000,
      maxBatch: options.maxBatch ?? 500,
      maxInFlight: 8,
      applied: (record, commands, appended) => this.applied(record, commands, appended),
      durable: (record, hash, durationMs) => this.durable(record, hash, durationMs),
      failed: (error) => this.rebuild(error),
    });
    this.chain = options.chainSettlement && new ChainSettlement(options.chainSettlement, {
      state: () => this.state,
      journal: (command) => this.submit(command),
      orders: (ids) => this.orderRows(ids),
      logger,
    });
    this.chainIndexer = options.chainIndex && new ChainIndexer(options.chainIndex, {
      state: () => this.state,
      journal: (command) => this.submit(command),
      walletsAmong: (addresses) => proxyWalletsAmong(db, addresses),
      logger,
    });
    this.schedule = new SettlementSchedule({
      hasWork: () => !this.chain && this.state.unsettled.size > 0,
      logger,
      blockMs: options.settlementBlockMs,
      runRound: () => this.submit({ kind: 'settle' }),
      running: () => this.running,
    });
    this.deadlines = new SafetyDeadlines({
      clock,
      nextDueMs: () => this.state.safety.nextDueMs(),
      tick: () => this.tick(),
      running: () => this.running,
      onError: (error) => {
        if (this.running) logger.error({ err: error }, 'the market makers safety tick failed');
      },
    });
    this.unannounced = options.announced && new UnannouncedRecords(options.announced);
    this.follower = new Follower({ store, state: () => this.state, records: this.unprojected, projected: this.projected, unannounced: this.unannounced, rebuild: () => this.recover(), logger });
  }

  /** Whether the parts of a leading engine run (timers, projector, publisher), whatever the mode says since. */
  private leadingParts = false;

  private get running(): boolean {
    return this.mode === 'leading';
  }

  /**
   * Takes the engine (the node holds the lease, or runs alone): a standby applies the records it
   * has not seen yet; a stopped engine recovers its state from the store (the newest usable
   * snapshot and the journal after it). Then the tables catch up with the records they lack, the
   * markets the catalogue published meanwhile are learnt, subscribers get every book's snapshot,
   * and the engine takes commands and runs its timers of expiry, speed bumps and settlement.
   */
  async start(): Promise<void> {
    let unannounced: AppliedRecord[] = [];
    if (this.mode === 'following') {
      await this.stopFollowing();
      await this.follower.catchUp();
      // A state behind the journal would append where records already are: the lease is left to a node that can follow.
      if (this.follower.failing) throw new Error('this node cannot follow the engine journal, so it does not take the engine', { cause: this.follower.failureReason });
      unannounced = (await this.unannounced?.takeOver()) ?? [];
    } else {
      await this.recover();
    }
    this.head = { seq: this.state.seq, hash: this.state.hash, atMs: (await this.options.store.head())?.atMs ?? 0 };
    for (const runtime of this.state.runtimes.values()) this.publisher.load(runtime.info, runtime.book);
    this.publisher.retain(new Set(this.state.runtimes.keys()));
    // Before the first projection: it may show trades another node held back from the live feed.
    await this.announcer.adoptHeld().catch((error) => this.options.logger.warn({ err: error }, 'reading the confirmed trades not shown yet failed; they will get no trade-activity event'));
    this.announcer.again(unannounced);
    this.projector.start(await this.options.store.projectedSeq());
    this.sequencer.resume();
    this.mode = 'leading';
    this.leadingParts = true;
    this.publisher.announceSnapshots();
    await this.reconcileMarkets();
    // The sockets recorded may have died with the last engine's node: their reconnect grace starts now (README "Market makers' safety").
    await this.adoptSessions();
    this.deadlines.update();
    // A tick refused because the engine is stopping (its queue is emptied) is the stop, not a failure.
    this.timer = setInterval(() => void this.tick().catch((error) => {
      if (this.running) this.options.logger.error({ err: error }, 'engine tick failed');
    }), 1000);
    this.timer.unref();
    this.schedule.schedule();
    this.startChainSettlement();
    this.chainIndexer?.start();
  }

  /** Starts settling on the chain, again every second while the chain does not answer. */
  private startChainSettlement(): void {
    const chain = this.chain;
    if (!chain) return;
    const attempt = (): void => {
      if (!this.running) return;
      chain.start().catch((error) => {
        this.options.logger.warn({ err: error }, 'settlement on the chain could not start; trying again in 1 s');
        setTimeout(attempt, 1000).unref();
      });
    };
    attempt();
  }

  /**
   * Runs as a standby (README.md "Standbys"): recovers the state and applies the journal as other
   * nodes append to it, so that a takeover has only the last records to apply.
   */
  async follow(): Promise<void> {
    // A journal this node cannot recover from (a record it cannot apply) leaves it following, not whole, trying again.
    let failure: unknown;
    await this.recover().catch((error: unknown) => (failure = error));
    await this.unannounced?.listen().catch((error: unknown) => this.options.logger.warn({ err: error }, 'cannot hear which records the engine node announces; a takeover by this node may leave some unannounced'));
    this.mode = 'following';
    this.listener = await this.options.listen?.({
      appended: () => {
        if (this.mode === 'following') this.follower.appended();
      },
      projected: (seq) => {
        if (this.mode !== 'following') return;
        this.projected.advance(seq);
        this.unprojected.projected(seq);
      },
      lost: (error) => this.options.logger.warn({ err: error }, 'the engine journal listener lost its connection; following by polling meanwhile'),
    });
    this.follower.start(failure);
  }

  /** Reads the stored orders' hashes into the used-hash filter, in the background (README.md "Admission"). */
  readUsedHashes(): void {
    if (this.running) this.usedHashes.start();
  }

  get takesCommands(): boolean {
    return this.running && !this.rebuilding;
  }

  /** Whether this node's state is whole (leading, or following the journal, not rebuilding): until then it serves no read of it. */
  get whole(): boolean {
    return this.mode !== 'stopped' && !this.rebuilding && !(this.mode === 'following' && this.follower.failing);
  }

  /**
   * Stops taking commands, answers the ones queued, writes every durable record into the tables,
   * publishes the books' pending changes, and forgets the state: another node may run it now.
   * `follow` instead goes back to following the journal (the lease passed on: a standby again).
   */
  async stop({ follow = false }: { follow?: boolean } = {}): Promise<void> {
    this.mode = 'stopped';
    // Even an engine that halted (no rebuild, lost lease) still runs its timers and projector.
    if (this.leadingParts) await this.stopLeading();
    await this.stopFollowing();
    this.state = new EngineState();
    this.unprojected.clear();
    if (follow) await this.follow();
  }

  private async stopLeading(): Promise<void> {
    this.leadingParts = false;
    clearInterval(this.timer);
    this.timer = undefined;
    this.schedule.stop();
    this.deadlines.stop();
    await this.chain?.stop();
    this.chainIndexer?.stop();
    this.sequencer.rejectWaiting(new EngineUnavailableError());
    await this.sequencer.idle();
    await this.announcer.idle();
    await this.projector.flush().catch((error) => this.options.logger.warn({ err: error }, 'the engine stopped with records the tables lack; the next start writes them'));
    this.snapshotter.cancel();
    await this.snapshotter.idle();
    await this.projector.stop();
    await this.announcer.forgetHeld();
    this.publisher.stop();
    this.usedHashes.stop();
  }

  private async stopFollowing(): Promise<void> {
    await this.follower.stop();
    await this.listener?.close();
    this.listener = undefined;
  }

  async place(order: NewOrder): Promise<PlaceResult> {
    const { outcome, seq } = await this.submit({ kind: 'place', order });
    if (outcome.ok) return { ok: true, order: outcome.replayed ? await this.replayedRow(outcome.order) : await this.rowOf(outcome.order), replayed: outcome.replayed, seq };
    const refused = 'order' in outcome ? outcome.order : undefined;
    return { ok: false, code: outcome.code, message: outcome.message, seq, ...(refused ? { order: await this.rowOf(refused) } : {}) };
  }

  /** NOT_OPEN: the engine does not hold the order open (the store says whose it is and what it became). */
  async cancel(userId: string, orderId: string): Promise<CancelResult> {
    const { outcome, seq } = await this.submit({ kind: 'cancel', userId, orderId });
    return outcome.ok ? { ok: true, order: await this.details.rowOf(outcome.order), seq } : { ...outcome, seq };
  }

  async cancelInMarkets(userId: string, marketIds: string[]): Promise<{ cancelled: OrderRow[]; seq: bigint }> {
    const { outcome, seq } = await this.submit({ kind: 'cancel-markets', userId, marketIds });
    await this.details.complete(outcome.cancelled);
    return { cancelled: outcome.cancelled.map((order) => orderRow(order, order.signed!)), seq };
  }

  /** Arms or refreshes the key's dead-man's switch (EXTENSIONS.md section 15): its orders go at `expiresAtMs` unless refreshed. */
  async heartbeat(apiKey: string, timeoutMs: number): Promise<{ expiresAtMs: number }> {
    return (await this.submit({ kind: 'heartbeat', apiKey, timeoutMs })).outcome;
  }

  async disarmHeartbeat(apiKey: string): Promise<void> {
    await this.submit({ kind: 'heartbeat-off', apiKey });
  }

  /**
   * Counts every cancel-on-disconnect socket recorded as dropped, but those of nodes still present:
   * the node holding one may be gone without a word (a takeover, or a node that left). A present
   * node's sockets stay live while it names them again (`session` with `resumes` itself); the
   * others start their reconnect grace (state/safety-commands.ts).
   */
  async adoptSessions(): Promise<void> {
    const { sessions } = this.state.safety;
    if (sessions.size === 0) return;
    const nodes = new Set([...sessions.values()].flatMap((key) => [...key.nodes.values()]));
    const present = nodes.size > 0 && this.options.presentNodes ? await this.options.presentNodes([...nodes].sort()) : [];
    await this.submit({ kind: 'sessions-adopted', present });
  }

  /** A cancel-on-disconnect socket of the key opened (`resumes`: the dropped socket it reconnects) or closed. */
  async session(change: Omit<CommandOf<'session'>, 'kind'>): Promise<void> {
    await this.submit({ kind: 'session', ...change });
  }

  /** The setting as put, or why it was refused (VALIDATION_FAILED: the key holds too many). */
  async setMmp(setting: MmpSettingInput): Promise<{ ok: true; setting: MmpSetting } | EngineFailure> {
    return (await this.submit({ kind: 'mmp-set', setting })).outcome;
  }

  async removeMmp(apiKey: string, scope: MmpScope): Promise<boolean> {
    return (await this.submit({ kind: 'mmp-remove', apiKey, scope })).outcome.removed;
  }

  /**
   * An order as its journal left it, whoever owns it: the records the tables lack first, then the
   * tables (read your writes, EXTENSIONS.md section 12).
   */
  async findOrder(orderId: string): Promise<OrderRow | undefined> {
    return (await this.orderRows([orderId])).get(orderId);
  }

  /** Expires due orders and releases due speed-bumped orders (the timer calls it; so does the manual clock). */
  async tick(): Promise<void> {
    if (this.running) await this.submit({ kind: 'tick' });
  }

  /**
   * Mines matched trades and confirms mined ones, as many rounds as there is work for; on a real
   * chain, waits until the chain has settled every trade (confirmed or failed).
   */
  async settle(): Promise<void> {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    for (;;) {
      if (this.chain) {
        while (this.running && this.state.unsettled.size > 0) await pause();
      } else {
        await this.schedule.idle();
        while (this.running && this.state.unsettled.size > 0) await this.submit({ kind: 'settle' });
      }
      // The record that settled the last trade durable too, as a reader sees it: a round the
      // schedule ran may have applied it while its append was still in flight. An append that
      // failed never makes it so: the state rebuilt from the journal has it unsettled again.
      const settledAt = this.state.seq;
      const rebuilds = this.rebuilds;
      while (this.running && this.head.seq < settledAt && this.rebuilds === rebuilds) await pause();
      if (this.rebuilds === rebuilds) return;
    }
  }

  /** Until the ledger holds every transfer of the chain's confirmed blocks as they are now (CHAIN=embedded); at once without a chain. */
  async chainIndexed(): Promise<void> {
    if (this.running) await this.chainIndexer?.caughtUp();
  }

  /** Resolves once what every record durable so far announced went out to its subscribers (domain events). */
  announced(): Promise<void> {
    return this.announcer.idle();
  }

  /** Tells the engine of a market the catalogue published or changed (pause, fees, tick size). */
  async refreshMarket(marketId: string): Promise<void> {
    const info = await this.options.markets.load(marketId);
    if (info?.status === 'ACTIVE' && !sameInfo(this.state.markets.get(marketId), info)) await this.submit({ kind: 'market', info });
  }

  async credit(c: CommandFields<'credit'>) {
    return (await this.submit({ kind: 'credit', ...c })).outcome;
  }

  async transfer(t: CommandFields<'transfer'>) {
    return (await this.submit({ kind: 'transfer', ...t })).outcome;
  }

  async split(s: CommandFields<'split'>) {
    return (await this.submit({ kind: 'split', ...s })).outcome;
  }

  async withdraw(w: CommandFields<'withdraw'>) {
    return (await this.submit({ kind: 'withdraw', ...w })).outcome;
  }

  async merge(m: CommandFields<'merge'>): Promise<MergeOutcome | EngineFailure> {
    return (await this.submit({ kind: 'merge', ...m })).outcome;
  }

  async redeem(r: CommandFields<'redeem'>): Promise<RedeemOutcome> {
    return (await this.submit({ kind: 'redeem', ...r })).outcome;
  }

  async oracle(marketId: string, command: OracleCommand, terms: CatalogueTerms): Promise<OracleCommandOutcome> {
    return (await this.submit({ kind: 'oracle', marketId, command, terms })).outcome;
  }

  /**
   * Resolves once this node's memory holds every record durable when it was called (read your
   * writes, EXTENSIONS.md section 12): at once where the engine runs; a standby applies the
   * journal up to its head first.
   */
  async caughtUp(): Promise<void> {
    if (!this.whole) throw new StateLoadingError();
    if (this.mode !== 'following') return;
    const head = await this.options.store.head();
    if (!head) return;
    void this.follower.catchUp();
    await this.follower.applied.reached(head.seq);
  }

  /** Resolves once the tables hold every durable record that touched the account (a reader of its own data). */
  async tablesHold(account: string): Promise<void> {
    await this.projected.reached(this.unprojected.lastSeqOf(account));
  }

  /** Resolves once the tables hold every record this node knows durable (a reader of everyone's data). */
  async tablesHoldAll(): Promise<void> {
    await this.projected.reached(this.running ? this.head.seq : this.state.seq);
  }

  /** The last durable record this node knows (EXTENSIONS.md section 14: GET /journal/head). */
  async journalHead(): Promise<{ seq: bigint; hash: string; atMs: number }> {
    if (this.running) return this.head;
    await this.caughtUp();
    return (await this.options.store.head()) ?? { seq: 0n, hash: this.state.hash, atMs: 0 };
  }

  /**
   * The hash of the state as a snapshot would encode it (state/snapshot-codec.ts): what any replay
   * of the journal to the same position (`seq`, which may be a record not durable yet) must reach.
   * Encodes the whole state: for audits and tests.
   */
  stateHash(): { seq: bigint; stateHash: string } {
    return { seq: this.state.seq, stateHash: encodeSnapshot(this.state).stateHash };
  }

  /** The sequence of the last durable record, where the engine runs (the header of an order command's answer). */
  get durableSeq(): bigint {
    return this.head.seq;
  }

  /** Commands durable and not in the tables yet: the projection's lag. */
  get unprojectedCommands(): number {
    return this.unprojected.lagCommands;
  }

  get usedHashFilterReady(): boolean {
    return this.usedHashes.ready;
  }

  get queueDepth(): number {
    return this.sequencer.queueDepth;
  }

  /**
   * Trades matched and not yet CONFIRMED or FAILED, and when the oldest of them was matched: what
   * settlement still owes (every node holds it, as it follows the journal).
   */
  get settlementBacklog(): { trades: number; oldestMatchedAtMs: number | undefined } {
    let oldest: number | undefined;
    for (const trade of this.state.unsettled.values()) if (oldest === undefined || trade.matchedAtMs < oldest) oldest = trade.matchedAtMs;
    return { trades: this.state.unsettled.size, oldestMatchedAtMs: oldest };
  }

  /**
   * How far behind the journal each follower of it is (README.md "Bounds"): records applied and
   * not durable, commands durable and not in the tables, commands and time since the last snapshot.
   */
  get lags(): { journalRecords: number; projectionCommands: number; snapshotCommands: number; snapshotAgeMs: number } {
    const snapshot = this.snapshotter.lag;
    return { journalRecords: this.sequencer.inFlight, projectionCommands: this.unprojected.lagCommands, snapshotCommands: snapshot.commands, snapshotAgeMs: snapshot.ageMs };
  }

  /** A place may also be answered by admission (state-free checks): an order a key made already, or a used hash. */
  private async submit<C extends EngineCommand>(command: C): Promise<{ outcome: C extends { kind: 'place' } ? OutcomeOf<C> | PlaceAnswer : OutcomeOf<C>; seq: bigint }> {
    if (!this.running) throw new EngineUnavailableError();
    this.checkBounds();
    const answer: Answer = await this.sequencer.submit(command);
    return answer as never;
  }

  /**
   * Past a bound, new commands wait outside (503 with Retry-After): the tables more than
   * MAX_PROJECTION_LAG commands behind the journal (reads would wait ever longer), or more than
   * MAX_UNSNAPSHOTTED commands since the last snapshot written (a restart would replay ever more).
   */
  private checkBounds(): void {
    const lags = this.lags;
    if (lags.projectionCommands > MAX_PROJECTION_LAG) throw new QueueFullError(`the tables are ${lags.projectionCommands} commands behind the journal; retry shortly`);
    if (lags.snapshotCommands > MAX_UNSNAPSHOTTED) throw new QueueFullError(`no snapshot of the engine was written for ${lags.snapshotCommands} commands; retry shortly`);
  }

  /** Orders as their journal left them, by id: the records the tables lack, then the tables. */
  private async orderRows(ids: string[]): Promise<Map<string, OrderRow>> {
    const rows = new Map<string, OrderRow>();
    // The changes not yet in the tables are taken before the tables are read: a projection that
    // lands during the read removes them from memory, and its rows then hold them already.
    const pendingChanges = new Map<string, (row: OrderRow) => OrderRow>();
    for (const id of ids) {
      const pending = this.unprojected.order(id);
      if (pending && 'row' in pending) rows.set(id, pending.row);
      else if (pending) pendingChanges.set(id, pending.apply);
    }
    const stored = ids.filter((id) => !rows.has(id));
    for (const row of stored.length > 0 ? await findOrdersByIds(this.options.db, stored) : []) {
      rows.set(row.id, pendingChanges.get(row.id)?.(row) ?? row);
    }
    return rows;
  }

  /**
   * A repeated idempotency key is answered with the order as it is now, as a read would show it:
   * admission found the order's row in the tables, which lack the fills and cancels of the records
   * not projected yet, so that row could show a cancelled order still PENDING (EXTENSIONS.md 12).
   */
  private async replayedRow(order: EngineOrder | OrderRow): Promise<OrderRow> {
    return (await this.orderRows([order.id])).get(order.id) ?? this.rowOf(order);
  }

  private async rowOf(order: EngineOrder | OrderRow): Promise<OrderRow> {
    return 'signature' in order ? order : this.details.rowOf(order);
  }

  private applied(record: AppliedRecord, commands: number, appended: Promise<void>): void {
    this.unprojected.add(record.changes, commands, false, record.effects);
    // A snapshot of this state is written only once this very record is durable and in the tables.
    this.snapshotter.applied(this.state, commands, () => appended.then(() => this.projected.reached(record.changes.seq)), () => this.projected.value);
  }

  /** `hash`: the record's own, in the journal's chain (the state may be records further on by now). */
  private durable(record: AppliedRecord, hash: string, durationMs: number): void {
    const { seq, atMs } = record.changes;
    this.head = { seq, hash, atMs };
    this.unprojected.markDurable(seq);
    this.usedHashes.add(record.changes.newOrders.map((o) => o.signed!.hash));
    this.announcer.durable(record);
    if (record.effects.safetyChanged) this.deadlines.update();
    this.projector.kick();
    this.schedule.schedule();
    // New matches only: a trade a reorg took back to MATCHED was in the ledger already, and its sender resends it.
    this.chain?.matched(record.effects.announcements.tradeUpdates.filter((t) => t.status === 'MATCHED' && !t.inLedger));
    const matched = record.effects.announcements.tradeUpdates.filter((t) => t.status === 'MATCHED').length;
    const settled = record.input.commands.some((command) => command.kind === 'settle');
    this.options.events.publish('engine-batch', { commands: record.outcomes.length, trades: matched, durationMs, settled });
  }

  /**
   * Memory went ahead of the journal (an append failed, or a command threw): the state is rebuilt
   * from the store, where the failed records never arrived. A lost lease stops the engine instead:
   * another node runs it now. Either way, when this throws, the sequencer halts until the next start.
   */
  private async rebuild(error: unknown): Promise<void> {
    if (error instanceof FencedError) {
      // The lease is gone: the leadership steps this node down (stop, then follow) at its next look.
      this.options.logger.warn('the engine lease passed to another node; this engine takes no more commands');
      this.mode = 'stopped';
      throw error;
    }
    this.options.logger.error({ err: error }, 'an engine record could not be made durable; rebuilding the state from the journal');
    this.rebuilding = true;
    try {
      await this.chain?.stop();
      this.chainIndexer?.stop();
      await this.projector.stop();
      const projectedSeq = await this.reloadRetrying();
      this.rebuilds += 1;
      for (const runtime of this.state.runtimes.values()) this.publisher.load(runtime.info, runtime.book);
      this.publisher.retain(new Set(this.state.runtimes.keys()));
      this.projector.start(projectedSeq);
      this.deadlines.update();
      this.startChainSettlement();
      this.chainIndexer?.start();
    } catch (rebuildError) {
      this.mode = 'stopped';
      this.options.logger.warn({ err: rebuildError }, 'the engine stopped before its state was rebuilt; the next start recovers it from the store');
      throw rebuildError;
    } finally {
      this.rebuilding = false;
    }
  }

  /**
   * The state, the head and the projected position read anew from the store. The store failed a
   * moment ago (that is why the state is rebuilt) and may still be failing: the reads are tried
   * again, after a pause doubling up to a second, for as long as the engine leads. So a store
   * that comes back finds the engine serving again without a restart, and a stop (the lease
   * lost, the process ending) ends the tries.
   */
  private async reloadRetrying(): Promise<bigint> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.recover();
        this.head = { seq: this.state.seq, hash: this.state.hash, atMs: (await this.options.store.head())?.atMs ?? 0 };
        return await this.options.store.projectedSeq();
      } catch (error) {
        if (!this.running) throw error;
        if (attempt === 1 || attempt % 30 === 0) this.options.logger.warn({ err: error, attempt }, 'rebuilding the engine state failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, Math.min(REBUILD_MAX_PAUSE_MS, REBUILD_FIRST_PAUSE_MS * 2 ** (attempt - 1))));
      }
    }
  }

  /** The state from the store (README.md "Recovery"), and the changes of the records the tables lack. */
  private async recover(): Promise<void> {
    const { store, clock, db, markets } = this.options;
    const recovered = await recoverState(store, async () => genesisState(db, await markets.loadPublished()), clock.nowMs());
    this.state = recovered.state;
    this.unprojected.clear();
    for (const { changes, commands } of recovered.unprojected) this.unprojected.add(changes, commands, true);
    this.projected.reset(recovered.projectedSeq);
  }

  /** Markets the catalogue published or changed while no engine ran learn of it now. */
  private async reconcileMarkets(): Promise<void> {
    for (const info of await this.options.markets.loadActive()) {
      if (!sameInfo(this.state.markets.get(info.id), info)) await this.submit({ kind: 'market', info });
    }
  }
}

function sameInfo(a: object | undefined, b: object): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
