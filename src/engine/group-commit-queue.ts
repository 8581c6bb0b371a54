import { QueueFullError } from './queue-full-error.ts';

/**
 * A bounded serial queue that hands whatever has accumulated to one `processBatch` call at a time
 * (group commit): commands that arrive while a batch commits wait and go together into the next
 * batch, so durability costs one write per batch rather than one per command.
 * A full queue refuses new work at once (the API answers 503), it never grows without bound.
 */

export interface GroupCommitOptions<C, R> {
  /** Applies and durably commits a batch; returns one result per command, in order. */
  processBatch(commands: C[]): Promise<R[]>;
  /** Most commands waiting at once. */
  capacity: number;
  /** Most commands handed to one batch. */
  maxBatch: number;
}

interface Pending<C, R> {
  command: C;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class GroupCommitQueue<C, R> {
  private readonly waiting: Pending<C, R>[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: GroupCommitOptions<C, R>) {
    if (options.capacity < 1 || options.maxBatch < 1) throw new RangeError('capacity and maxBatch must be at least 1');
  }

  get size(): number {
    return this.waiting.length;
  }

  submit(command: C): Promise<R> {
    if (this.waiting.length >= this.options.capacity) return Promise.reject(new QueueFullError(`the engine queue is full (${this.options.capacity} commands waiting); retry shortly`));
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ command, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Resolves once every command submitted so far has been processed. */
  async idle(): Promise<void> {
    if (!this.running && this.waiting.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    this.running = true;
    // Yield to the event loop before each batch, not just to the microtask queue: requests whose
    // bytes arrived together are parsed one callback at a time, and a batch that writes nothing
    // runs on microtasks alone, so without a macrotask turn every batch would hold a single
    // command and group commit would never group. When a full batch already waits, there is
    // nothing to group and the next batch starts at once: every batch that writes waits for
    // another thread or process (PostgreSQL, PGlite's thread, the journal's sync), which gives
    // timers, socket reads and new connections their turn (README "Turns").
    await nextTurn();
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      try {
        const results = await this.options.processBatch(batch.map((p) => p.command));
        if (results.length !== batch.length) throw new Error(`processBatch returned ${results.length} results for ${batch.length} commands`);
        batch.forEach((pending, i) => { pending.resolve(results[i]!); });
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
      if (this.waiting.length < this.options.maxBatch) await nextTurn();
    }
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
