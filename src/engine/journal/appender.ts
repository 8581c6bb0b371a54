import type { StoredRecord } from './journal-store.ts';

interface Pending {
  record: StoredRecord;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Appends the engine's records to its journal strictly in order, one append at a time: the
 * records applied while an append is in flight go together into the next one (group commit), so
 * a record is never durable before the one it follows. An append that fails fails every record
 * queued behind it too: memory is then ahead of the journal, and the engine rebuilds.
 */
export class JournalAppender {
  private queue: Pending[] = [];
  private appending: Promise<void> | undefined;
  /** Settles once every record handed over so far is durable, or failed to be. */
  private last: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(private readonly appendRecords: (records: StoredRecord[]) => Promise<void>, private readonly maxRecordsPerAppend = 64) {}

  /** Hands a record over; resolves once it is durable. */
  append(record: StoredRecord): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    const durable = new Promise<void>((resolve, reject) => this.queue.push({ record, resolve, reject }));
    this.last = durable.catch(() => {});
    this.appending ??= this.run();
    return durable;
  }

  /** Resolves once every record handed over so far is durable; rejects when one of them failed. */
  async durable(): Promise<void> {
    await this.last;
    if (this.failure) throw this.failure.error;
  }

  /** Records handed over and not durable yet. */
  get inFlight(): number {
    return this.queue.length + (this.appending ? 1 : 0);
  }

  /** Settles once no append is under way. */
  async idle(): Promise<void> {
    await this.appending;
  }

  /** After a rebuild: appends may start again. */
  reset(): void {
    this.failure = undefined;
  }

  private async run(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.failure) {
        const batch = this.queue.splice(0, this.maxRecordsPerAppend);
        try {
          await this.appendRecords(batch.map((p) => p.record));
          for (const pending of batch) pending.resolve();
        } catch (error) {
          this.failure = { error };
          for (const pending of [...batch, ...this.queue.splice(0)]) pending.reject(error);
        }
      }
    } finally {
      this.appending = undefined;
    }
  }
}
