import type { Clock } from '../clock.ts';
import type { Admission, PlaceAnswer } from './admission.ts';
import { JournalAppender } from './journal/appender.ts';
import type { StoredRecord } from './journal/journal-store.ts';
import { chainHash, encodeRecord } from './journal/record-codec.ts';
import { AppError } from '../contract/errors.ts';
import { EngineUnavailableError, NotDurableError, QueueFullError } from './queue-full-error.ts';
import { applyRecord, type AppliedRecord } from './state/apply.ts';
import type { CommandOutcome, EngineCommand } from './state/commands.ts';
import type { EngineState } from './state/engine-state.ts';

/** A command's answer: what the engine made of it, or what admission answered, and the record it was evaluated in. */
export interface Answer {
  outcome: CommandOutcome | PlaceAnswer;
  /** The journal position the answer reflects: its record's, or the last durable one for a command that changed nothing. */
  seq: bigint;
}

export interface SequencerOptions {
  /** The engine's state (a rebuild replaces it). */
  state(): EngineState;
  admission: Admission;
  clock: Clock;
  append(records: StoredRecord[]): Promise<void>;
  /** Most commands waiting at once (past it: 503). */
  capacity: number;
  /** Most commands in one record. */
  maxBatch: number;
  /** Most records applied and not durable yet: matching waits for the journal beyond it. */
  maxInFlight: number;
  /** A record was applied to the state (not durable yet; `appended` settles when it is, or rejects when it never will be): the records the tables lack take it. */
  applied(record: AppliedRecord, commands: number, appended: Promise<void>): void;
  /** A record became durable (`hash` its own in the journal's chain, `durationMs` after its batch was taken): announce and project it. */
  durable(record: AppliedRecord, hash: string, durationMs: number): void;
  /**
   * The pipeline failed (an append, or a command that threw): memory is ahead of the journal. The
   * sequencer takes nothing more until this resolves, having rebuilt the state from the journal;
   * when it rejects (no rebuild, or the lease is lost) the sequencer halts until `resume`.
   */
  failed(error: unknown): Promise<void>;
}

interface Waiting {
  command: EngineCommand;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/**
 * The engine's one writer (README.md "The pipeline"): commands queue here, are taken in batches
 * (whatever accumulated: group commit), admitted, applied to the state as one journal record, and
 * answered once that record is durable. Batches pipeline: the next batch is matched while the
 * record before it is appended, and records are appended strictly in order, so answers, events
 * and the projection follow the journal's order. A bounded queue: full, it refuses at once (503).
 */
export class Sequencer {
  private readonly waiting: Waiting[] = [];
  private readonly appender: JournalAppender;
  private draining = false;
  private idleWaiters: (() => void)[] = [];
  /** Set while the state is rebuilt after a failure: commands wait for it. */
  private rebuilding: Promise<void> | undefined;
  /** The state could not be rebuilt (or the lease is lost): it is ahead of the journal, and nothing more is applied to it until `resume`. */
  private halted = false;

  constructor(private readonly options: SequencerOptions) {
    this.appender = new JournalAppender(options.append);
  }

  get queueDepth(): number {
    return this.waiting.length;
  }

  /** Records applied and not durable yet: the journal's lag. */
  get inFlight(): number {
    return this.appender.inFlight;
  }

  submit(command: EngineCommand): Promise<Answer> {
    if (this.halted) return Promise.reject(new EngineUnavailableError());
    if (this.waiting.length >= this.options.capacity) return Promise.reject(new QueueFullError(`the engine queue is full (${this.options.capacity} commands waiting); retry shortly`));
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ command, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Resolves once every command submitted so far is answered. */
  async idle(): Promise<void> {
    if (this.draining || this.waiting.length > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    await this.appender.durable().catch(() => {});
  }

  /** After the engine's state was recovered anew (a start): commands are applied again. */
  resume(): void {
    this.halted = false;
    this.appender.reset();
  }

  /** Fails every waiting command (the engine stops taking them: another node may run it now). */
  rejectWaiting(error: unknown): void {
    for (const waiting of this.waiting.splice(0)) waiting.reject(error);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    // Yield to the event loop before each batch: requests whose bytes arrived together are parsed
    // one callback at a time, and without a macrotask turn every batch would hold one command.
    await nextTurn();
    while (this.waiting.length > 0) {
      await this.rebuilding;
      if (this.appender.inFlight >= this.options.maxInFlight) await this.appender.durable().catch(() => {});
      await this.runBatch(this.waiting.splice(0, this.options.maxBatch));
      if (this.waiting.length < this.options.maxBatch) await nextTurn();
    }
    this.draining = false;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async runBatch(batch: Waiting[]): Promise<void> {
    const { admission, clock } = this.options;
    if (this.halted) {
      for (const waiting of batch) waiting.reject(new EngineUnavailableError());
      return;
    }
    // Wall-clock time, not the injected clock: this measures the batch, it decides nothing.
    const takenMs = performance.now();
    let answers: (PlaceAnswer | undefined)[];
    try {
      answers = await admission.admit(batch.map((w) => w.command));
    } catch (error) {
      for (const waiting of batch) waiting.reject(asServiceError(error));
      return;
    }
    // An append failed while this batch was admitted: the state is being rebuilt under it.
    if (this.rebuilding) {
      for (const waiting of batch) waiting.reject(new NotDurableError(undefined));
      return;
    }
    const state = this.options.state();
    const admitted = batch.filter((_, i) => answers[i] === undefined);
    const seq = state.seq + 1n;
    const atMs = clock.nowMs();
    const commands = admitted.map((w) => w.command);
    // The record's text is taken before it is applied: applying may keep the commands' objects in the state, which later records change.
    const text = encodeRecord({ seq, atMs, commands });
    let applied: AppliedRecord;
    try {
      applied = applyRecord(state, { seq, atMs, commands });
    } catch (error) {
      this.fail(error, batch);
      return;
    }
    let durable: Promise<void>;
    if (applied.changedState) {
      const hash = chainHash(state.hash, text);
      state.seq = seq;
      state.hash = hash;
      const appended = this.appender.append({ seq, atMs, hash, text });
      this.options.applied(applied, admitted.length, appended);
      durable = appended.then(() => this.options.durable(applied, hash, performance.now() - takenMs));
    } else {
      durable = this.appender.durable();
    }
    const answeredAt = applied.changedState ? seq : seq - 1n;
    durable.then(
      () => {
        let next = 0;
        batch.forEach((waiting, i) => {
          waiting.resolve({ outcome: answers[i] ?? applied.outcomes[next++]!, seq: answeredAt });
        });
      },
      (error: unknown) => this.fail(error, batch),
    );
  }

  /** Fails the batch's commands and rebuilds the state from the journal (once for all the failures of one append). */
  private fail(error: unknown, batch: Waiting[]): void {
    for (const waiting of batch) waiting.reject(asServiceError(error));
    this.rebuilding ??= (async () => {
      await this.appender.idle();
      try {
        await this.options.failed(error);
        this.appender.reset();
      } catch {
        // Nothing more may be applied to a state that is ahead of the journal: not even what already waits.
        this.halted = true;
        this.rejectWaiting(new EngineUnavailableError());
      } finally {
        this.rebuilding = undefined;
      }
    })();
  }
}

/** What a caller is told of a failure: the catalogued errors as they are (a lost lease is 503), anything else a 503. */
const asServiceError = (error: unknown) => (error instanceof AppError ? error : new NotDurableError(error));

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
