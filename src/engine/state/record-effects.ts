import type { BookLevels } from '../../core/book/types.ts';
import type { OracleState } from '../../core/oracle/state-machine.ts';
import type { BalanceRow } from './balances.ts';
import type { LedgerMarket, LedgerSink, LedgerTx, SealedBlock } from './ledger.ts';
import type { MmpScope } from './maker-safety.ts';
import type { CancelReason, EngineOrder, EngineTrade, LastTrade, OrderStatus } from './types.ts';

/** A balance row as a record left it (the projection writes whole rows, never deltas). */
export interface BalanceImage extends BalanceRow {
  account: string;
  asset: string;
}

/** An order's changing fields as a record left them. */
export interface OrderImage {
  id: string;
  bookSeq: bigint;
  matchedBaseUnits: bigint;
  status: OrderStatus;
  delayedUntilMs: number | null;
  updatedAtMs: number;
  /**
   * The whole order as the record left it, when the engine holds its signed fields: what a read of
   * it takes before the tables hold the change (settlement builds each fill's call from its orders'
   * rows), instead of reading the row the change applies to.
   */
  whole?: EngineOrder;
}

/** A market a question's settlement resolved, and the outcome it resolved to. */
export interface MarketResolution {
  marketId: string;
  outcome: 'YES' | 'NO' | 'TIE';
  atMs: number;
}

/** A redemption of one market's tokens (the `redemptions` table: what was burned and paid). */
export interface Redemption {
  id: string;
  userId: string;
  account: string;
  marketId: string;
  txHash: string;
  burned: [bigint, bigint];
  payoutBaseUnits: bigint;
  atMs: number;
}

/** What a record changed in an event (neg-risk determination, or every market resolved). */
export interface EventChange {
  eventId: string;
  winningMarketId?: string;
  resolved?: boolean;
  atMs: number;
}

/**
 * Everything one journal record changed, as immutable images taken when the record was applied:
 * the projection writes these into the tables (engine/projection/), and later records, which may
 * change the same objects before this one is durable, cannot reach into them.
 */
export interface RecordChanges {
  seq: bigint;
  atMs: number;
  /** Orders the record accepted, whole, as the record left them (with their signed fields). */
  newOrders: EngineOrder[];
  /** Orders accepted before the record whose state it changed. */
  orders: OrderImage[];
  /** Trades the record made or moved on (MINED, CONFIRMED), as it left them. */
  trades: EngineTrade[];
  balances: BalanceImage[];
  ledgerTxs: LedgerTx[];
  ledgerMarkets: LedgerMarket[];
  blocks: SealedBlock[];
  questions: { marketId: string; state: OracleState }[];
  resolutions: MarketResolution[];
  events: EventChange[];
  redemptions: Redemption[];
  /** Every account whose orders, trades or balances the record changed: their readers wait for its projection. */
  accounts: string[];
}

/** What subscribers are told of a record once it is durable. */
export interface RecordAnnouncements {
  orderUpdates: { order: EngineOrder; type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'; status: OrderStatus; matchedBaseUnits: bigint; reason?: CancelReason }[];
  /** MMP settings the record tripped (the `/user` event `mmp-triggered`). */
  mmpTrips: { userId: string; apiKey: string; scope: MmpScope; trippedAtMs: number; frozenUntilMs: number }[];
  tradeUpdates: EngineTrade[];
  lastTrades: { marketId: string; assetId: string; price: string; side: 'buy' | 'sell' }[];
  /** The books the record changed, their levels as it left them (a later record changes the live ones). */
  books: { marketId: string; levels: [BookLevels, BookLevels] }[];
  /** Markets it retired: their books are published empty and forgotten. */
  retiredMarkets: string[];
  /** Markets it added or changed (the publisher follows a new book, and learns a changed market's terms). */
  markets: { marketId: string; added: boolean }[];
}

/** A balance row's value before the record first changed it: what a reader of durable state sees meanwhile. */
export type BalanceBefore = Map<string, BalanceImage>;

/** A token's last trade before the record first changed it (undefined: it had none), by token id. */
export type LastTradeBefore = Map<string, LastTrade | undefined>;

/** What a record replaced that a reader of durable state sees until the record is durable. */
export interface ValuesBefore {
  balancesBefore: BalanceBefore;
  lastTradesBefore: LastTradeBefore;
}

export const balanceKey = (account: string, asset: string) => `${account}\u0000${asset}`;

/**
 * Collects what one record changes while the engine applies it, then `seal`s it into images. The
 * state calls its hooks (orders, trades, balances through `Balances.listen`, the ledger through
 * `Ledger.listen`), so no command needs to say what it touched twice.
 */
export class RecordEffects implements LedgerSink, ValuesBefore {
  private readonly newOrders = new Map<string, EngineOrder>();
  private readonly changedOrders = new Map<string, EngineOrder>();
  private readonly trades = new Map<string, EngineTrade>();
  private readonly ledgerTxs: LedgerTx[] = [];
  private readonly ledgerMarkets = new Map<string, LedgerMarket>();
  private readonly blocks: SealedBlock[] = [];
  private readonly questions = new Map<string, OracleState>();
  private readonly resolutions: MarketResolution[] = [];
  private readonly eventChanges = new Map<string, EventChange>();
  private readonly redemptions: Redemption[] = [];
  readonly balancesBefore: BalanceBefore = new Map();
  readonly lastTradesBefore: LastTradeBefore = new Map();
  readonly announcements: RecordAnnouncements = { orderUpdates: [], tradeUpdates: [], lastTrades: [], books: [], retiredMarkets: [], markets: [], mmpTrips: [] };
  readonly touchedMarkets = new Set<string>();
  /** What the engine should log about the record (the state machine has no logger). */
  readonly warnings: { context: Record<string, unknown>; message: string }[] = [];
  /** Set when the record changed market makers' safety state (a heartbeat, a session, an MMP setting): it must be journaled. */
  safetyChanged = false;
  /** Set when the record put or dropped a settlement sender's transaction record: state the tables do not hold, journaled all the same. */
  chainTxsChanged = false;
  /** Set when the record moved the chain index's cursor or its shortfalls: journaled for the same reason. */
  chainIndexChanged = false;

  constructor(readonly seq: bigint, readonly atMs: number) {}

  /** Balances.listen's hook: the first value of a row this record changes. */
  balanceTouched = (account: string, asset: string, before: Readonly<BalanceRow>): void => {
    const key = balanceKey(account, asset);
    if (!this.balancesBefore.has(key)) this.balancesBefore.set(key, { account, asset, balance: before.balance, locked: before.locked });
  };

  /** A trade's print is about to replace the token's last trade: the first value this record replaces. */
  lastTradeTouched(tokenId: string, before: LastTrade | undefined): void {
    if (!this.lastTradesBefore.has(tokenId)) this.lastTradesBefore.set(tokenId, before);
  }

  orderAccepted(order: EngineOrder): void {
    this.newOrders.set(order.id, order);
  }

  orderChanged(order: EngineOrder): void {
    order.updatedAtMs = this.atMs;
    if (!this.newOrders.has(order.id)) this.changedOrders.set(order.id, order);
  }

  /** The order as this record left it, when the record accepted or changed it. */
  changedOrder(orderId: string): EngineOrder | undefined {
    return this.newOrders.get(orderId) ?? this.changedOrders.get(orderId);
  }

  tradeChanged(trade: EngineTrade): void {
    this.trades.set(trade.id, trade);
  }

  transaction(tx: LedgerTx): void {
    this.ledgerTxs.push(tx);
  }

  market(market: LedgerMarket): void {
    this.ledgerMarkets.set(market.conditionId, market);
  }

  block(block: SealedBlock): void {
    this.blocks.push(block);
  }

  question(marketId: string, state: OracleState): void {
    this.questions.set(marketId, state);
  }

  resolved(resolution: MarketResolution): void {
    this.resolutions.push(resolution);
  }

  marketChanged(marketId: string, added: boolean): void {
    this.announcements.markets.push({ marketId, added });
  }

  redeemed(redemption: Redemption): void {
    this.redemptions.push(redemption);
  }

  eventChanged(change: Omit<EventChange, 'atMs'>): void {
    const known = this.eventChanges.get(change.eventId) ?? { eventId: change.eventId, atMs: this.atMs };
    this.eventChanges.set(change.eventId, { ...known, ...change });
  }

  warn(context: Record<string, unknown>, message: string): void {
    this.warnings.push({ context, message });
  }

  /** Whether applying the record changed any state: a record that changed nothing is not journaled. */
  get changedState(): boolean {
    return this.newOrders.size + this.changedOrders.size + this.trades.size + this.balancesBefore.size + this.ledgerTxs.length + this.ledgerMarkets.size
      + this.blocks.length + this.questions.size + this.resolutions.length + this.eventChanges.size + this.redemptions.length + this.announcements.markets.length > 0 || this.safetyChanged || this.chainTxsChanged || this.chainIndexChanged;
  }

  private accounts(): string[] {
    const accounts = new Set<string>();
    for (const order of this.newOrders.values()) accounts.add(order.account);
    for (const order of this.changedOrders.values()) accounts.add(order.account);
    for (const trade of this.trades.values()) accounts.add(trade.taker.account).add(trade.maker.account);
    for (const { account } of this.balancesBefore.values()) accounts.add(account);
    return [...accounts];
  }

  /**
   * The record's changes as images of this moment. `balanceNow` reads a row as the record left
   * it; `levelsOf` a touched book's levels (gone for a market the record retired).
   */
  seal(balanceNow: (account: string, asset: string) => Readonly<BalanceRow>, levelsOf: (marketId: string) => [BookLevels, BookLevels] | undefined): RecordChanges {
    for (const marketId of this.touchedMarkets) {
      const levels = levelsOf(marketId);
      if (levels) this.announcements.books.push({ marketId, levels });
    }
    return {
      seq: this.seq,
      atMs: this.atMs,
      newOrders: [...this.newOrders.values()].map((order) => ({ ...order })),
      orders: [...this.changedOrders.values()].map((o) => ({
        id: o.id, bookSeq: o.bookSeq, matchedBaseUnits: o.matchedBaseUnits, status: o.status, delayedUntilMs: o.delayedUntilMs, updatedAtMs: o.updatedAtMs, ...(o.signed ? { whole: { ...o } } : {}),
      })),
      trades: [...this.trades.values()].map((trade) => ({ ...trade })),
      balances: [...this.balancesBefore.values()].map(({ account, asset }) => ({ account, asset, ...balanceNow(account, asset) })),
      ledgerTxs: this.ledgerTxs,
      ledgerMarkets: [...this.ledgerMarkets.values()].map((market) => ({ ...market })),
      blocks: this.blocks,
      questions: [...this.questions].map(([marketId, state]) => ({ marketId, state })),
      resolutions: this.resolutions,
      events: [...this.eventChanges.values()],
      redemptions: this.redemptions,
      accounts: this.accounts(),
    };
  }
}
