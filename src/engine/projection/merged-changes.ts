import type { OracleState } from '../../core/oracle/state-machine.ts';
import type { ProjectionWrites } from '../../store/engine-projection-writes.ts';
import type { OrderRow } from '../../store/orders-repository.ts';
import type { TradeRow } from '../../store/trades-repository.ts';
import type { LedgerMarket, LedgerTx, SealedBlock } from '../state/ledger.ts';
import { balanceKey, type BalanceImage, type EventChange, type MarketResolution, type OrderImage, type RecordChanges, type Redemption } from '../state/record-effects.ts';
import { orderRow, tradeRow } from './rows.ts';

/** A ledger transaction as the projection writes it: with its block when a block of the same projection sealed it. */
export interface ProjectedTx extends LedgerTx {
  blockNumber: bigint | null;
}

/**
 * The changes of consecutive journal records `first` to `last`, merged into what the tables must
 * end up holding (README.md "Projection"): an order accepted and then filled is inserted filled,
 * a trade matched and then mined is written mined, a balance row changed ten times is written
 * once as it ends, transactions and blocks are appended in order. Writing the merge is the same
 * as writing the records one by one: the audit checks that the tables hold exactly the replayed
 * state, after every run of the simulation (test/engine/simulation.test.ts), whose projections
 * merge whatever became durable meanwhile.
 */
export interface MergedChanges extends ProjectionWrites {
  first: bigint;
  last: bigint;
  commands: number;
  newOrders: Map<string, OrderRow>;
  orders: Map<string, OrderImage>;
  trades: Map<string, TradeRow>;
  balances: Map<string, BalanceImage>;
  ledgerTxs: ProjectedTx[];
  /** Transactions projected before this merge that one of its blocks sealed. */
  sealedEarlier: { seq: bigint; blockNumber: bigint }[];
  blocks: SealedBlock[];
  ledgerMarkets: Map<string, LedgerMarket>;
  questions: Map<string, { state: OracleState; atMs: number }>;
  resolutions: MarketResolution[];
  events: Map<string, EventChange>;
  redemptions: Redemption[];
}

export function mergeChanges(records: readonly { changes: RecordChanges; commands: number }[]): MergedChanges {
  if (records.length === 0) throw new Error('nothing to merge');
  const merged: MergedChanges = {
    first: records[0]!.changes.seq, last: records.at(-1)!.changes.seq, commands: 0,
    newOrders: new Map(), orders: new Map(), trades: new Map(), balances: new Map(), ledgerTxs: [], sealedEarlier: [], blocks: [],
    ledgerMarkets: new Map(), questions: new Map(), resolutions: [], events: new Map(), redemptions: [],
  };
  const txsBySeq = new Map<bigint, ProjectedTx>();
  for (const { changes, commands } of records) {
    merged.commands += commands;
    for (const order of changes.newOrders) merged.newOrders.set(order.id, orderRow(order, order.signed!));
    for (const image of changes.orders) {
      const inserted = merged.newOrders.get(image.id);
      if (inserted) Object.assign(inserted, rowFieldsOf(image));
      else merged.orders.set(image.id, image);
    }
    for (const trade of changes.trades) merged.trades.set(trade.id, tradeRow(trade));
    for (const balance of changes.balances) merged.balances.set(balanceKey(balance.account, balance.asset), balance);
    for (const tx of changes.ledgerTxs) {
      const projected = { ...tx, blockNumber: null };
      merged.ledgerTxs.push(projected);
      txsBySeq.set(tx.seq, projected);
    }
    for (const block of changes.blocks) {
      merged.blocks.push(block);
      for (const { seq } of block.txs) {
        const tx = txsBySeq.get(seq);
        if (tx) tx.blockNumber = block.number;
        else merged.sealedEarlier.push({ seq, blockNumber: block.number });
      }
    }
    for (const market of changes.ledgerMarkets) merged.ledgerMarkets.set(market.conditionId, market);
    for (const { marketId, state } of changes.questions) merged.questions.set(marketId, { state, atMs: changes.atMs });
    merged.resolutions.push(...changes.resolutions);
    for (const change of changes.events) merged.events.set(change.eventId, { ...merged.events.get(change.eventId), ...change });
    merged.redemptions.push(...changes.redemptions);
  }
  return merged;
}

function rowFieldsOf(image: OrderImage): Partial<OrderRow> {
  return {
    book_seq: image.bookSeq,
    matched_base_units: image.matchedBaseUnits,
    status: image.status,
    delayed_until: image.delayedUntilMs === null ? null : new Date(image.delayedUntilMs),
    updated_at: new Date(image.updatedAtMs),
  };
}
