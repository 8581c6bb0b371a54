import type { OrderRow } from '../../store/orders-repository.ts';
import type { OrderImage, RecordChanges, ValuesBefore } from '../state/record-effects.ts';
import type { LastTrade } from '../state/types.ts';
import { orderRow } from './rows.ts';

/** A record the tables lack: applied, and durable once its append committed. */
export interface UnprojectedRecord {
  changes: RecordChanges;
  commands: number;
  durable: boolean;
  /** The balance rows' and last trades' values before the record changed them (kept until the record is durable). */
  before: ValuesBefore | undefined;
}

/**
 * The records the tables lack, from the moment they are applied (README.md "What a reader sees"):
 * what the engine reads through to decide on a new order (the hashes and idempotency keys of
 * orders not in the tables yet), what a read of an order sees before its row does, which
 * accounts a record touched (a reader of an account waits for the records that touched it), and
 * what the projector takes, in order, once durable. Records leave once the tables hold them.
 */
export class UnprojectedRecords {
  private readonly records: UnprojectedRecord[] = [];
  private readonly hashes = new Map<string, bigint>();
  private readonly keys = new Map<string, { row: OrderRow; seq: bigint }>();
  private readonly newOrders = new Map<string, { row: OrderRow; seq: bigint }>();
  private readonly changed = new Map<string, { image: OrderImage; seq: bigint }>();
  private readonly accounts = new Map<string, bigint>();
  /** The last record the tables lack that changed a market's state (its oracle, resolution, event): 0 for none. */
  private lastMarketWide = 0n;
  private commandCount = 0;

  add(changes: RecordChanges, commands: number, durable: boolean, before?: ValuesBefore): void {
    const { seq } = changes;
    this.records.push({ changes, commands, durable, before: durable || !before ? undefined : { balancesBefore: before.balancesBefore, lastTradesBefore: before.lastTradesBefore } });
    this.commandCount += commands;
    for (const order of changes.newOrders) {
      const row = orderRow(order, order.signed!);
      this.newOrders.set(order.id, { row, seq });
      this.hashes.set(row.hash, seq);
      if (row.idempotency_key) this.keys.set(`${row.user_id}|${row.idempotency_key}`, { row, seq });
    }
    for (const image of changes.orders) {
      const inserted = this.newOrders.get(image.id);
      if (inserted) {
        Object.assign(inserted.row, { book_seq: image.bookSeq, matched_base_units: image.matchedBaseUnits, status: image.status, delayed_until: image.delayedUntilMs === null ? null : new Date(image.delayedUntilMs), updated_at: new Date(image.updatedAtMs) });
        inserted.seq = seq;
      } else {
        this.changed.set(image.id, { image, seq });
      }
    }
    for (const account of changes.accounts) this.accounts.set(account, seq);
    if (changes.questions.length + changes.resolutions.length + changes.events.length + changes.ledgerMarkets.length > 0) this.lastMarketWide = seq;
  }

  markDurable(seq: bigint): void {
    for (const record of this.records) {
      if (record.changes.seq > seq) break;
      record.durable = true;
      record.before = undefined;
    }
  }

  /**
   * The account's balance rows as the durable records left them, where records not durable yet
   * changed them since: by asset, the value before the first such record.
   */
  balancesBeforeUndurable(account: string): Map<string, { balance: bigint; locked: bigint }> {
    const before = new Map<string, { balance: bigint; locked: bigint }>();
    for (const record of this.records) {
      if (!record.before) continue;
      for (const image of record.before.balancesBefore.values()) {
        if (image.account === account && !before.has(image.asset)) before.set(image.asset, { balance: image.balance, locked: image.locked });
      }
    }
    return before;
  }

  /**
   * The token's last trade as the durable records left it, where a record not durable yet changed
   * it since (`changed`: false when none did, and the live value is the durable one).
   */
  lastTradeBeforeUndurable(tokenId: string): { changed: false } | { changed: true; lastTrade: LastTrade | undefined } {
    for (const record of this.records) {
      if (record.before?.lastTradesBefore.has(tokenId)) return { changed: true, lastTrade: record.before.lastTradesBefore.get(tokenId) };
    }
    return { changed: false };
  }

  /** The oldest durable records the tables lack, at most about `maxCommands` commands of them (at least one record). */
  durablePrefix(maxCommands: number): UnprojectedRecord[] {
    const prefix: UnprojectedRecord[] = [];
    let commands = 0;
    for (const record of this.records) {
      if (!record.durable || (prefix.length > 0 && commands + record.commands > maxCommands)) break;
      prefix.push(record);
      commands += record.commands;
    }
    return prefix;
  }

  /** The tables now hold every record up to `seq`: those leave, and what only they held. */
  projected(seq: bigint): void {
    while (this.records.length > 0 && this.records[0]!.changes.seq <= seq) this.commandCount -= this.records.shift()!.commands;
    dropUpTo(this.hashes, seq, (v) => v);
    dropUpTo(this.keys, seq, (v) => v.seq);
    dropUpTo(this.newOrders, seq, (v) => v.seq);
    dropUpTo(this.changed, seq, (v) => v.seq);
    dropUpTo(this.accounts, seq, (v) => v);
    if (this.lastMarketWide <= seq) this.lastMarketWide = 0n;
  }

  /** Forgets everything (the engine rebuilt its state; a new overlay is built from its recovery). */
  clear(): void {
    this.records.length = 0;
    this.commandCount = 0;
    this.lastMarketWide = 0n;
    for (const map of [this.hashes, this.keys, this.newOrders, this.changed, this.accounts]) map.clear();
  }

  hasHash(hash: string): boolean {
    return this.hashes.has(hash);
  }

  *orderHashes(): IterableIterator<string> {
    yield* this.hashes.keys();
  }

  byIdempotencyKey(userId: string, key: string): OrderRow | undefined {
    return this.keys.get(`${userId}|${key}`)?.row;
  }

  /**
   * What the records hold of an order: its whole row when they accepted it or changed an order
   * whole (its signed fields in memory), else the change they made to the row the tables have
   * (`apply` it), else nothing. Read before the table: the records leave only once the tables
   * hold them.
   */
  order(orderId: string): { row: OrderRow } | { apply(stored: OrderRow): OrderRow } | undefined {
    const inserted = this.newOrders.get(orderId);
    if (inserted) return { row: { ...inserted.row } };
    const change = this.changed.get(orderId)?.image;
    if (!change) return undefined;
    if (change.whole?.signed) return { row: orderRow(change.whole, change.whole.signed) };
    return {
      apply: (stored) => ({ ...stored, book_seq: change.bookSeq, matched_base_units: change.matchedBaseUnits, status: change.status, delayed_until: change.delayedUntilMs === null ? null : new Date(change.delayedUntilMs), updated_at: new Date(change.updatedAtMs) }),
    };
  }

  /**
   * What a reader of the account must wait for (0: nothing): the last record the tables lack that
   * touched the account, or that changed a market's state, if later. An account's reads carry its
   * markets' states (a position's oracle proposal, its market resolved), and a client that was
   * answered a market's change expects every read after it to show it; such records are rare.
   */
  lastSeqOf(account: string): bigint {
    const own = this.accounts.get(account) ?? 0n;
    return own > this.lastMarketWide ? own : this.lastMarketWide;
  }

  /** The last record held (0: none). */
  get lastSeq(): bigint {
    return this.records.at(-1)?.changes.seq ?? 0n;
  }

  /** Commands of the records held: the projection's lag. */
  get lagCommands(): number {
    return this.commandCount;
  }

  get size(): number {
    return this.records.length;
  }
}

function dropUpTo<K, V>(map: Map<K, V>, seq: bigint, seqOf: (value: V) => bigint): void {
  for (const [key, value] of map) if (seqOf(value) <= seq) map.delete(key);
}
