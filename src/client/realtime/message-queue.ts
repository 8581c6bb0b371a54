/** Messages waiting for a consumer; beyond this the oldest are dropped (a bound on memory). */
const QUEUE_MAX = 10_000;

/**
 * Socket messages as an async iterable: pushed by listeners, pulled by `for await`. Closing ends
 * the iteration; leaving a `for await` early calls `onReturn` (the feed closes its socket).
 */
export class MessageQueue<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private closed = false;

  constructor(private readonly onReturn: () => void) {}

  push(message: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: message, done: false });
      return;
    }
    this.queue.push(message);
    if (this.queue.length > QUEUE_MAX) this.queue.shift();
  }

  close(): void {
    this.closed = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const message = this.queue.shift();
        if (message !== undefined) return Promise.resolve({ value: message, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => { this.waiting = resolve; });
      },
      return: () => {
        this.onReturn();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
