import { EventEmitter } from 'node:events';

/**
 * The domain events the engine and services publish AFTER their work has committed; the
 * real-time module (and anything else that reacts) subscribes. Publishers never call subscribers
 * directly, and nothing is published for work that did not commit.
 *
 * Payloads are plain data already in their API shapes, so a subscriber forwards them unchanged.
 */
export interface DomainEventMap {
  /** A user's order was placed, filled (partly or fully), cancelled or expired. */
  'order-update': { userId: string; type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'; order: unknown; reason?: string };
  /** A key's market-maker protection tripped (EXTENSIONS.md section 15): `{scope, trippedAt, frozenUntil}`, to its owner. */
  'mmp-triggered': { userId: string; update: unknown };
  /** A trade reached a status (MATCHED, MINED, CONFIRMED, FAILED); sent to both parties. */
  'trade-update': { userIds: string[]; trade: unknown };
  /** One token's book changed: the levels whose totals changed since its previous change (net over the batches of a frame), with the book's new seq and hash. */
  'book-change': { marketId: string; assetId: string; seq: number; hash: string; timestampMs: number; changes: { price: string; side: 'buy' | 'sell'; size: string }[] };
  /**
   * The engine started on this node (a boot or a takeover): the whole book of one token, with the
   * seq its changes continue from. Subscribers replace what they hold with it (a resync point).
   */
  'book-snapshot': { assetId: string; snapshot: unknown };
  /** A trade printed: the last trade price of one token of the market. */
  'last-trade-price': { marketId: string; assetId: string; price: string; side: 'buy' | 'sell'; timestampMs: number };
  /** The engine's projection wrote ledger transactions into the tables (trades mined, splits, merges, redeems, credits ...): how many. */
  'ledger-projected': { transactions: number };
  /** A trade was confirmed: its public TradeActivity row (before the notional floor is applied). */
  'trade-activity': { eventId: string | null; notionalUsd: number; activity: unknown };
  /** The oracle's outcome resolved a market, durably (the engine's journal holds it). */
  'market-resolved': { marketId: string; outcome: 'YES' | 'NO' | 'TIE' };
  /** The oracle moved collateral in the ledger, durably (a reward from the reward treasury, a lost bond): the ledger transaction, the accounts debited and credited, the amount in base units. */
  'oracle-payout': { ledgerTxHash: string; kind: 'ORACLE_REWARD' | 'BOND_FORFEIT'; from: string; to: string; amount: bigint };
  /**
   * The engine's node published every event of journal record `seq` above (after them, in order):
   * the other nodes learn from it which records a node that takes the engine over must announce
   * again (docs/engine.md "Standbys").
   */
  'record-announced': { seq: bigint };
  /** Progress of a reward claim. */
  'reward-claim-update': { userId: string; update: unknown };
  /**
   * Operational events, for metrics: no client sees them. An engine batch committed (its
   * commands, the trades it matched, and how long it took from start to commit, in wall-clock ms).
   */
  'engine-batch': { commands: number; trades: number; durationMs: number; settled: boolean };
  /** Order entry decided a CreateOrder: accepted, or refused with its error code. */
  'order-decided': { accepted: boolean; code: string | null };
}

export type DomainEventName = keyof DomainEventMap;

export class DomainEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every socket namespace and job may subscribe; the default warning at 10 is noise here.
    this.emitter.setMaxListeners(0);
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  subscribe<K extends DomainEventName>(name: K, listener: (payload: DomainEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
