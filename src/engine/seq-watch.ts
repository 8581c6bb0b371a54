/** A journal position that only moves forward, and the waits for it to reach one. */
export class SeqWatch {
  private waiters: { seq: bigint; resolve(): void }[] = [];

  constructor(private current = 0n) {}

  get value(): bigint {
    return this.current;
  }

  /** Moves to `seq` (never back) and lets go of every wait it reached. */
  advance(seq: bigint): void {
    if (seq <= this.current) return;
    this.current = seq;
    const due = this.waiters.filter((w) => w.seq <= seq);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.seq > seq);
    for (const waiter of due) waiter.resolve();
  }

  /** Starts again from `seq` (a recovery): waits beyond it go on waiting. */
  reset(seq: bigint): void {
    this.current = seq;
    this.advance(seq);
  }

  reached(seq: bigint): Promise<void> {
    if (this.current >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }
}
