import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../../worker-module.ts';
import { QueueFullError } from '../queue-full-error.ts';
import { verifySignature } from './recover-signer.ts';
import type { VerifyBatch, VerifyJob, VerifyResults } from './protocol.ts';

/**
 * Order-signature verification off the event loop (DESIGN.md "Signatures off the hot thread").
 * A small pool of worker threads recovers signers with the native binding; requests that arrive
 * in the same turn of the event loop travel to the workers as one batch per worker, which keeps
 * the message overhead far below the cost of a recover. The queue is bounded: past `maxQueue`
 * outstanding requests, `verify` rejects with QueueFullError (503 SERVICE_UNAVAILABLE, safe to
 * retry) instead of letting latency grow without limit.
 */

type Hex = `0x${string}`;

export interface SignatureVerifier {
  /** True when `signature` over `digest` recovers to `expectedSigner`. */
  verify(digest: Hex, signature: Hex, expectedSigner: string): Promise<boolean>;
  /** Stops the workers; requests still outstanding reject. */
  close(): Promise<void>;
  /** Worker threads in use; 0 means verification runs on the calling thread. */
  readonly workers: number;
}

export interface SignatureVerifierOptions {
  /** Worker threads; default the number of CPUs. 0 verifies in-thread (tests, tiny deployments). */
  readonly workers?: number;
  /** The most requests queued or in flight at once; default 10,000. */
  readonly maxQueue?: number;
}

export const DEFAULT_MAX_QUEUE = 10_000;



export function createSignatureVerifier(options: SignatureVerifierOptions = {}): SignatureVerifier {
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer, got ${workers}`);
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  if (!Number.isInteger(maxQueue) || maxQueue < 1) throw new RangeError(`maxQueue must be a positive integer, got ${maxQueue}`);
  return workers === 0 ? inThreadVerifier() : new WorkerPool(workers, maxQueue);
}

function inThreadVerifier(): SignatureVerifier {
  return {
    workers: 0,
    verify: async (digest, signature, expectedSigner) => verifySignature(digest, signature, expectedSigner),
    close: async () => {},
  };
}

interface Pending {
  resolve(valid: boolean): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** Ids of the requests this worker holds, so a crash can fail exactly those. */
  inFlight: Set<number>;
}

function startWorker(): Worker {
  return startWorkerModule(import.meta.url, 'worker');
}

class WorkerPool implements SignatureVerifier {
  readonly workers: number;
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private queued: { id: number; job: VerifyJob }[] = [];
  private flushScheduled = false;
  private nextId = 0;
  private closed = false;

  constructor(workers: number, private readonly maxQueue: number) {
    this.workers = workers;
    for (let i = 0; i < workers; i++) this.slots.push(this.spawn());
  }

  verify(digest: Hex, signature: Hex, expectedSigner: string): Promise<boolean> {
    if (this.closed) return Promise.reject(new Error('signature verifier is closed'));
    if (this.pending.size >= this.maxQueue) return Promise.reject(new QueueFullError(`signature verification queue is full (${this.maxQueue} requests outstanding); retry shortly`));
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.queued.push({ id, job: [digest, signature, expectedSigner] });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('signature verifier closed');
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.queued = [];
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  /** Hands every queued request to the least-loaded worker, one message per worker. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.closed) return;
    const batches = new Map<Slot, { ids: number[]; jobs: VerifyJob[] }>();
    for (const { id, job } of this.queued) {
      const slot = this.leastLoaded();
      slot.inFlight.add(id);
      const batch = batches.get(slot) ?? { ids: [], jobs: [] };
      batch.ids.push(id);
      batch.jobs.push(job);
      batches.set(slot, batch);
    }
    this.queued = [];
    for (const [slot, batch] of batches) {
      slot.worker.ref();
      slot.worker.postMessage(batch satisfies VerifyBatch);
    }
  }

  private leastLoaded(): Slot {
    let best = this.slots[0]!;
    for (const slot of this.slots) if (slot.inFlight.size < best.inFlight.size) best = slot;
    return best;
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, inFlight: new Set() };
    // An idle worker must not keep the process alive; it is ref'd again while it holds work.
    worker.unref();
    worker.on('message', (results: VerifyResults) => this.settle(slot, results));
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.replace(slot, new Error(`signature worker exited with code ${code}`));
    });
    return slot;
  }

  private settle(slot: Slot, results: VerifyResults): void {
    results.ids.forEach((id, index) => {
      slot.inFlight.delete(id);
      this.pending.get(id)?.resolve(results.valid[index] === true);
      this.pending.delete(id);
    });
    if (slot.inFlight.size === 0) slot.worker.unref();
  }

  /** A crashed worker fails only the requests it held, and a fresh worker takes its place. */
  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1 || this.closed) return;
    for (const id of slot.inFlight) {
      this.pending.get(id)?.reject(error);
      this.pending.delete(id);
    }
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // it is being replaced; a late error has nobody left to tell
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
  }
}
