import type { TransactionReceipt } from 'viem';
import type { Fees } from '../../../core/transaction-fees.ts';
import type { ConfirmedTx } from './lost-confirmed.ts';
import type { Fill, FillEvent, RecordChange, RevertReason, SenderOptions, TxRecord } from './types.ts';

/** A record and what only this process knows of it. */
export interface Tracked {
  record: TxRecord;
  /** When a version was last broadcast: the replacement timer's start. */
  sentAtMs: number;
  /** Set after a resume or a reorg: broadcast the latest version again, unchanged. */
  rebroadcast: boolean;
  /**
   * The node refused the latest version's last broadcast itself (the key without gas for it, the
   * node down): it is sent again as it is, never raised, since no pool holds it to be replaced.
   */
  refused: boolean;
  /**
   * Consecutive looks that found the nonce used and none of our versions' receipts. A node can
   * answer the nonce of a new block before its receipts (anvil does), so one look is not proof
   * that another transaction took the nonce; two are.
   */
  displacedLooks: number;
}

export const trackedFrom = (record: TxRecord, nowMs: number, rebroadcast: boolean): Tracked => ({ record, sentAtMs: nowMs, rebroadcast, refused: false, displacedLooks: 0 });

type Defaulted = 'maxFillsPerTx' | 'maxGasPerTx' | 'maxCalldataBytes' | 'gatherMs' | 'maxInFlight' | 'confirmations' | 'replaceAfterMs' | 'feeBumpPercent' | 'pollIntervalMs' | 'maxBackoffMs' | 'maxQueuedFills' | 'maxMinedReverts' | 'gasMarginPercent' | 'simulationBlockTag' | 'simulation' | 'now' | 'onError';
export type Settings<F extends Fill> = SenderOptions<F> & Required<Pick<SenderOptions<F>, Defaulted>>;

/** The state the dispatcher and the tracker share. One loop runs both, so no two steps interleave on a record. */
export class SenderContext<F extends Fill> {
  /** Fills waiting for a transaction, in journal order (requeued ones first). */
  readonly queue: F[] = [];
  /** By `recordKey`. */
  readonly tracked = new Map<string, Tracked>();
  /** Every fill queued or in a tracked record, by id: a fill is never in two places. */
  readonly fills = new Map<string, F>();
  readonly minedReverts = new Map<string, number>();
  /** Recent confirmed transactions of ours by nonce, oldest first (lost-confirmed.ts). */
  readonly confirmed = new Map<number, ConfirmedTx>();
  /** Consecutive looks that found the key's mined nonce below the nonces sent, held by no record. */
  gapLooks = 0;
  /** When such a gap that no kept transaction fills was last reported. */
  gapReportedAtMs: number | undefined;
  /** When the last batch left the queue (settings.now()): the next one that is not full waits `gatherMs` from it. */
  lastBatchAtMs = -Infinity;
  nextNonce = 0;
  chainId = 0;

  constructor(
    readonly settings: Settings<F>,
    readonly currentFees: () => Promise<Fees>,
  ) {}

  fillsOf(record: TxRecord): F[] {
    return record.fillIds.map((id) => this.fills.get(id)!);
  }

  /** Milliseconds until the queue's next batch may go (`gatherMs` from the last one, at once when it is full); Infinity with nothing queued. */
  batchDueInMs(): number {
    if (this.queue.length === 0) return Infinity;
    if (this.queue.length >= this.settings.maxFillsPerTx) return 0;
    return Math.max(0, this.lastBatchAtMs + this.settings.gatherMs - this.settings.now());
  }

  unminedCount(): number {
    let count = 0;
    for (const { record } of this.tracked.values()) if (record.nonce !== null && record.mined === null) count++;
    return count;
  }

  async put(tracked: Tracked, record: TxRecord): Promise<void> {
    await this.persist({ kind: 'put', record });
    tracked.record = record;
    this.tracked.set(recordKey(record), tracked);
  }

  /** Forgets a record; its fills stay known only if requeued. */
  async drop(record: TxRecord): Promise<void> {
    await this.persist({ kind: 'drop', record });
    this.tracked.delete(recordKey(record));
  }

  /** Puts fills back at the head of the queue, in their order: they go before anything newer. */
  requeue(fills: readonly F[]): void {
    this.queue.unshift(...fills);
  }

  /** Done with a fill: confirmed or failed. */
  release(fill: F): void {
    this.fills.delete(fill.id);
    this.minedReverts.delete(fill.id);
  }

  emit(event: FillEvent<F>): void {
    this.settings.onEvent(event);
  }

  fail(fill: F, reason: RevertReason, txHash?: TransactionReceipt['transactionHash']): void {
    this.release(fill);
    this.emit(txHash === undefined ? { type: 'failed', fill, reason } : { type: 'failed', fill, reason, txHash });
  }

  private async persist(change: RecordChange): Promise<void> {
    await this.settings.persist(change);
  }
}

export const recordKey = (record: Pick<TxRecord, 'nonce' | 'versions'>) => (record.nonce !== null ? `nonce:${record.nonce}` : `watch:${record.versions[0]!.hash}`);
