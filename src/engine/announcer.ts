import type { FastifyBaseLogger } from 'fastify';
import type { DomainEvents } from '../events/domain-events.ts';
import { unitsToNumber } from '../core/money.ts';
import { toTradeActivity } from '../market-data/trade-activity.ts';
import { COLLATERAL } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { findTradeActivity, findUnshownTradeIds } from '../store/market-data-trades-repository.ts';
import type { BookPublisher } from './book-publisher.ts';
import type { OrderDetails } from './order-details.ts';
import type { MergedChanges } from './projection/merged-changes.ts';
import { orderRow, tradeRow } from './projection/rows.ts';
import type { AppliedRecord } from './state/apply.ts';
import type { EngineState } from './state/engine-state.ts';
import { toMmpTriggered, toOrderResponse, toTradeResponse } from './shapes.ts';

/** Confirmed trades held back from the `trade-activity` feed at most (`Announcer.projected`). */
const MAX_HELD_ACTIVITY = 10_000;

export interface AnnouncerOptions {
  db: Db;
  events: DomainEvents;
  publisher: BookPublisher;
  details: OrderDetails;
  logger: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  state(): EngineState;
}

/**
 * Tells subscribers what durable records changed (EXTENSIONS.md section 6), in journal order and
 * never before a record is durable: the books' levels as each record left them (BookPublisher
 * frames them), order and trade updates, last trade prices, markets added, retired and resolved. A
 * confirmed trade's public activity row, which reads the catalogue and the trader's profile, goes
 * out once `GET /trades/activity` shows it (`projected`).
 */
export class Announcer {
  /** Records announce one after the other: an order whose details are read holds the next ones back. */
  private queue: Promise<void> = Promise.resolve();
  /** Confirmed trades whose `trade-activity` waits for an earlier match to settle. */
  private readonly heldActivity = new Set<string>();

  constructor(private readonly options: AnnouncerOptions) {}

  durable(record: AppliedRecord): void {
    const { publisher, logger } = this.options;
    const { announcements, warnings } = record.effects;
    const state = this.options.state();
    const added = new Set(announcements.markets.filter((m) => m.added).map((m) => m.marketId));
    for (const { marketId, levels } of announcements.books) {
      const info = state.markets.get(marketId);
      if (!info) continue;
      const book = { levels: (outcome: 0 | 1) => levels[outcome] };
      if (added.has(marketId)) publisher.load(info, book);
      else publisher.committed(info, book, record.changes.atMs);
    }
    for (const marketId of announcements.retiredMarkets) publisher.forget(marketId, record.changes.atMs);
    for (const warning of warnings) logger.warn(warning.context, warning.message);
    this.enqueue(record);
  }

  /**
   * What a projection wrote that others wait for: its ledger transactions, and the public activity
   * rows of confirmed trades once `GET /trades/activity` shows them. It shows a trade only once
   * every earlier match has settled (market-data README), and a chain may confirm a later match
   * first: such a trade is held here until a projection settles the earlier ones, so the event
   * goes out when the row can be read, and in match order.
   */
  projected(merged: MergedChanges): void {
    if (merged.ledgerTxs.length > 0) this.options.events.publish('ledger-projected', { transactions: merged.ledgerTxs.length });
    const settled = [...merged.trades.values()].filter((t) => t.status === 'CONFIRMED' || t.status === 'FAILED');
    if (settled.length === 0) return;
    for (const trade of settled) if (trade.status === 'CONFIRMED') this.heldActivity.add(trade.id);
    // Bounded, should an earlier match stay unsettled for long: the oldest held get no event (their rows are shown all the same).
    for (const id of this.heldActivity) {
      if (this.heldActivity.size <= MAX_HELD_ACTIVITY) break;
      this.heldActivity.delete(id);
    }
    this.queue = this.queue.then(async () => {
      if (this.heldActivity.size === 0) return;
      for (const row of await findTradeActivity(this.options.db, [...this.heldActivity])) {
        this.heldActivity.delete(row.id);
        this.options.events.publish('trade-activity', { eventId: row.event_id, notionalUsd: unitsToNumber(row.notional_base_units), activity: toTradeActivity(row) });
      }
    }).catch((error) => this.options.logger.error({ err: error }, 'announcing confirmed trades failed'));
  }

  /**
   * The engine starts leading: the confirmed trades the tables do not show yet are held, as the
   * node that led before held them, so their events go out when they are shown, whoever leads then.
   */
  async adoptHeld(): Promise<void> {
    for (const id of await findUnshownTradeIds(this.options.db, MAX_HELD_ACTIVITY)) this.heldActivity.add(id);
  }

  /**
   * The engine stopped leading (its projector stopped): what it held is the next leader's to
   * announce, this node's own next start included, once the announcements under way went out.
   */
  async forgetHeld(): Promise<void> {
    await this.queue;
    this.heldActivity.clear();
  }

  /**
   * A takeover: the records the node that led before applied and never was heard announcing (it
   * died first), announced now, before any record of this engine's. Their books are in the
   * snapshots every start publishes.
   */
  again(records: AppliedRecord[]): void {
    for (const record of records) this.enqueue(record);
  }

  /** Resolves once every announcement queued so far went out. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(record: AppliedRecord): void {
    this.queue = this.queue.then(() => this.announce(record)).catch((error) => this.options.logger.error({ err: error, seq: record.changes.seq.toString() }, 'announcing an engine record failed'));
  }

  private async announce(record: AppliedRecord): Promise<void> {
    const { events, details } = this.options;
    const state = this.options.state();
    const { announcements } = record.effects;
    await details.complete(announcements.orderUpdates.map((u) => u.order));
    for (const update of announcements.orderUpdates) {
      const row = { ...orderRow(update.order, update.order.signed!), status: update.status, matched_base_units: update.matchedBaseUnits };
      const order = toOrderResponse(row, state.outcomeLabelOf(update.order));
      events.publish('order-update', { userId: update.order.userId, type: update.type, order, ...(update.reason ? { reason: update.reason } : {}) });
    }
    for (const trip of announcements.mmpTrips) events.publish('mmp-triggered', { userId: trip.userId, update: toMmpTriggered(trip) });
    for (const trade of announcements.tradeUpdates) {
      events.publish('trade-update', { userIds: [...new Set([trade.taker.userId, trade.maker.userId])], trade: toTradeResponse(tradeRow(trade)) });
    }
    for (const print of announcements.lastTrades) events.publish('last-trade-price', { ...print, timestampMs: record.changes.atMs });
    for (const { marketId, outcome } of record.changes.resolutions) events.publish('market-resolved', { marketId, outcome });
    for (const tx of record.changes.ledgerTxs) {
      if (tx.kind !== 'ORACLE_REWARD' && tx.kind !== 'BOND_FORFEIT') continue;
      const debited = tx.entries.find((entry) => entry.asset === COLLATERAL && entry.amount < 0n);
      const credited = tx.entries.find((entry) => entry.asset === COLLATERAL && entry.amount > 0n);
      if (debited && credited) events.publish('oracle-payout', { ledgerTxHash: tx.txHash, kind: tx.kind, from: debited.account, to: credited.account, amount: credited.amount });
    }
    events.publish('record-announced', { seq: record.changes.seq });
  }
}
