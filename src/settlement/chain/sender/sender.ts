import { FEE_BUMP_PERCENT, REPLACE_AFTER_MS } from '../../../core/transaction-fees.ts';
import { recordKey, SenderContext, type Settings, trackedFrom } from './context.ts';
import { dispatch } from './dispatch.ts';
import { nonceAt } from './chain-reads.ts';
import { feeOracle } from './signer.ts';
import { track } from './track.ts';
import type { Fill, SenderOptions, TxRecord } from './types.ts';

export interface SettlementSender<F extends Fill> {
  /** Takes over the live records of an earlier sender (call before `start`), with the fills they name. */
  resume(records: readonly TxRecord[], fills: readonly F[]): void;
  /** Reads the operator's pending nonce and starts the loop. */
  start(): Promise<void>;
  /** Queues fills in journal order. Throws if one is already queued or in flight, or the queue is full. */
  submit(fills: readonly F[]): void;
  /** Ends the loop after its current step; records stay as persisted. */
  stop(): Promise<void>;
  /** The live records, as persisted. */
  records(): TxRecord[];
  /** Fills not yet confirmed or failed. */
  outstanding(): number;
}

const DEFAULTS = {
  maxFillsPerTx: 200,
  maxGasPerTx: 25_000_000n,
  maxCalldataBytes: 120_000,
  gatherMs: 0,
  maxInFlight: 16,
  confirmations: 1,
  replaceAfterMs: REPLACE_AFTER_MS,
  feeBumpPercent: FEE_BUMP_PERCENT,
  pollIntervalMs: 100,
  maxBackoffMs: 5_000,
  maxQueuedFills: 100_000,
  maxMinedReverts: 3,
  gasMarginPercent: 20,
  simulationBlockTag: 'pending',
  simulation: 'estimateGas',
  now: Date.now,
  onError: console.error,
} as const;

/**
 * The settlement sender: batches fills into transactions of one operator key, simulates each
 * batch first, keeps several in flight, and reports each fill mined, confirmed, reorged or failed
 * (README.md).
 */
export function createSettlementSender<F extends Fill>(options: SenderOptions<F>): SettlementSender<F> {
  const settings = { ...DEFAULTS, ...options } as Settings<F>;
  const ctx = new SenderContext(settings, feeOracle(settings.client, settings.pollIntervalMs, settings.now));
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  /** Ends the current nap early: `stop` always does, new fills unless the nap is a backoff. */
  let wake: { now(): void; onFills: boolean } | null = null;

  const nap = (ms: number, onFills = true) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = { now: done, onFills };
    });

  /** The wait of a step that could send nothing: the poll interval, or less when a gathered batch falls due sooner. */
  const idleMs = () => (ctx.unminedCount() < settings.maxInFlight ? Math.min(settings.pollIntervalMs, ctx.batchDueInMs()) : settings.pollIntervalMs);

  async function run(): Promise<void> {
    let failures = 0;
    while (running) {
      let more = false;
      try {
        await track(ctx);
        more = await dispatch(ctx);
        failures = 0;
      } catch (error) {
        // A node that is down or refusing: everything is still recorded; the next step tries again, later each time.
        failures += 1;
        settings.onError(error);
      }
      if (!running) break;
      if (failures > 0) await nap(Math.min(settings.pollIntervalMs * 2 ** failures, settings.maxBackoffMs), false);
      // More to send now: the next step at once (its look at the chain first); otherwise wait for the chain or for fills.
      else if (!more) await nap(idleMs());
    }
  }

  return {
    resume(records, fills) {
      if (running) throw new Error('resume before start');
      const byId = new Map(fills.map((fill) => [fill.id, fill]));
      for (const record of records) {
        for (const id of record.fillIds) {
          const fill = byId.get(id);
          if (fill === undefined) throw new Error(`resume: record of nonce ${record.nonce} names fill ${id}, not given`);
          ctx.fills.set(id, fill);
        }
        // Persisted before its broadcast, so maybe never broadcast: send it again as it is.
        const tracked = trackedFrom(record, settings.now(), record.mined === null && record.nonce !== null);
        ctx.tracked.set(recordKey(record), tracked);
        if (record.nonce !== null) ctx.nextNonce = Math.max(ctx.nextNonce, record.nonce + 1);
      }
    },
    async start() {
      ctx.chainId = await settings.client.getChainId();
      ctx.nextNonce = Math.max(ctx.nextNonce, await nonceAt(settings.client, settings.account.address, 'pending'));
      reportResumedMined();
      running = true;
      loop = run();
    },
    submit(fills) {
      if (ctx.queue.length + fills.length > settings.maxQueuedFills) throw new Error(`settlement queue full (${settings.maxQueuedFills} fills)`);
      for (const fill of fills) if (ctx.fills.has(fill.id)) throw new Error(`fill ${fill.id} is already queued or in flight`);
      for (const fill of fills) ctx.fills.set(fill.id, fill);
      ctx.queue.push(...fills);
      if (wake?.onFills && ctx.batchDueInMs() === 0) wake.now();
    },
    async stop() {
      running = false;
      wake?.now();
      await loop;
    },
    records: () => [...ctx.tracked.values()].map(({ record }) => record),
    outstanding: () => ctx.fills.size,
  };

  /** A record persisted as mined may not have reached the caller's fill state before the crash: say it again (events are idempotent). */
  function reportResumedMined(): void {
    for (const { record } of ctx.tracked.values()) {
      if (record.mined === null) continue;
      for (const fill of ctx.fillsOf(record)) ctx.emit({ type: 'mined', fill, txHash: record.mined.hash, blockNumber: record.mined.blockNumber, blockHash: record.mined.blockHash });
    }
  }
}
