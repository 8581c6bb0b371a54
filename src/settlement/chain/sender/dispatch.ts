import type { Address, Hex } from 'viem';
import { bisect, type Simulation } from './bisect.ts';
import { receiptOf, nonceAt } from './chain-reads.ts';
import { type SenderContext, trackedFrom } from './context.ts';
import { confirmIfDeep, markMined } from './inclusion.ts';
import { isGasCapError, revertReasonOf } from './revert-reason.ts';
import { cappedFees } from '../../../core/transaction-fees.ts';
import { signVersion } from './signer.ts';
import { send } from './track.ts';
import type { Fill, RevertReason, TxRecord } from './types.ts';

/**
 * Sends the next batch of queued fills, in queue order, if it is due (`gatherMs`) and fewer than
 * `maxInFlight` transactions are unmined; answers whether another could be sent at once. One
 * batch per step, so that the tracker looks between two batches: under a backlog, mined
 * transactions are reported as they are mined, not once the queue is empty or `maxInFlight` are
 * in flight.
 */
export async function dispatch<F extends Fill>(ctx: SenderContext<F>): Promise<boolean> {
  const { maxFillsPerTx, maxInFlight, maxGasPerTx } = ctx.settings;
  const canSend = () => ctx.batchDueInMs() === 0 && ctx.unminedCount() < maxInFlight;
  if (canSend()) {
    ctx.lastBatchAtMs = ctx.settings.now();
    const batch = ctx.queue.splice(0, maxFillsPerTx);
    const handled = new Set<string>();
    const encoded = encodedOnce(ctx.settings.encode);
    const steps = {
      simulate: (part: readonly F[]) => simulate(ctx, part, encoded(part)),
      send: async (part: readonly F[], gas: bigint) => {
        await sendNew(ctx, part, gas, encoded(part));
        for (const fill of part) handled.add(fill.id);
      },
      fail: async (fill: F, reason: RevertReason) => {
        await failOrFindSettlement(ctx, fill, reason);
        handled.add(fill.id);
      },
      maxGas: maxGasPerTx,
    };
    try {
      await bisect(batch, steps);
    } catch (error) {
      ctx.requeue(batch.filter((fill) => !handled.has(fill.id)));
      throw error;
    }
  }
  return canSend();
}

type Call = { to: Address; data: Hex };

/**
 * `encode`, each part once: a part that simulates well is sent as it was simulated, and encoding
 * a batch of 200 fills takes milliseconds of the event loop (viem's ABI encoder).
 */
function encodedOnce<F extends Fill>(encode: (batch: readonly F[]) => Call): (part: readonly F[]) => Call {
  const calls = new WeakMap<readonly F[], Call>();
  return (part) => {
    const known = calls.get(part);
    if (known !== undefined) return known;
    const call = encode(part);
    calls.set(part, call);
    return call;
  };
}

async function simulate<F extends Fill>(ctx: SenderContext<F>, batch: readonly F[], call: Call): Promise<Simulation> {
  const { client, account, abi, simulationBlockTag, maxGasPerTx, maxCalldataBytes, simulation } = ctx.settings;
  // Too long for a node's pool is not a revert either: "over the cap", so the batch is halved.
  if (batch.length > 1 && (call.data.length - 2) / 2 > maxCalldataBytes) return { kind: 'ok', gas: maxGasPerTx + 1n };
  try {
    if (simulation === 'call') {
      // One execution at the cap; sendNew caps the margin there, so the transaction has exactly the gas the simulation had.
      await client.call({ account: account.address, ...call, blockTag: simulationBlockTag, gas: maxGasPerTx });
      return { kind: 'ok', gas: maxGasPerTx };
    }
    const gas = await client.estimateGas({ account: account.address, ...call, blockTag: simulationBlockTag });
    return { kind: 'ok', gas };
  } catch (error) {
    // Too big for a block is not a revert: answer "over the cap" so the batch is halved.
    if (isGasCapError(error) && batch.length > 1) return { kind: 'ok', gas: maxGasPerTx + 1n };
    const reason = revertReasonOf(error, abi);
    if (reason === null) throw error;
    return { kind: 'reverted', reason };
  }
}

/**
 * Signs a batch at the next nonce, persists it, then broadcasts it. "Nonce too low" is not taken
 * as proof that another transaction used the nonce (a retried request whose first try was
 * mined says the same): the record stays, and the tracker decides from receipts, requeueing the
 * fills if it was displaced. Later batches move past the nonces the chain has used.
 */
async function sendNew<F extends Fill>(ctx: SenderContext<F>, batch: readonly F[], estimatedGas: bigint, { to, data }: Call): Promise<void> {
  const { account, gasMarginPercent, maxGasPerTx } = ctx.settings;
  const withMargin = (estimatedGas * BigInt(100 + gasMarginPercent)) / 100n;
  const gas = withMargin > maxGasPerTx ? maxGasPerTx : withMargin;
  const unsigned: TxRecord = { nonce: ctx.nextNonce, fillIds: batch.map((fill) => fill.id), to, data, gas: String(gas), versions: [], mined: null };
  const { version, raw } = await signVersion(account, ctx.chainId, unsigned, cappedFees(await ctx.currentFees(), ctx.settings.maxFeePerGasCap));
  const tracked = trackedFrom(unsigned, ctx.settings.now(), false);
  await ctx.put(tracked, { ...unsigned, versions: [version] });
  // Only once the record is durable: a failed write leaves no gap in the nonces.
  ctx.nextNonce++;
  const outcome = await send(ctx, tracked, raw);
  if (outcome === 'nonce-too-low') await skipUsedNonces(ctx);
}

/** Past the nonces the chain has used. The fills are the record's now: a failed read must not hand them back to the queue. */
async function skipUsedNonces<F extends Fill>(ctx: SenderContext<F>): Promise<void> {
  const { client, account, onError } = ctx.settings;
  try {
    ctx.nextNonce = Math.max(ctx.nextNonce, await nonceAt(client, account.address, 'pending'));
  } catch (error) {
    // The next new transaction meets "nonce too low" again and tries again.
    onError(error);
  }
}

/**
 * A fill that reverts alone. If the contract says it is already settled, the transaction that
 * settled it (an earlier sender's: a crash before its record was persisted, a takeover, a
 * reorg race) is looked up, and the fill is reported mined in it and watched like our own.
 * Otherwise it failed, with the contract's reason.
 */
async function failOrFindSettlement<F extends Fill>(ctx: SenderContext<F>, fill: F, reason: RevertReason): Promise<void> {
  const { isAlreadySettled, findSettlement, logIndexesOf, client } = ctx.settings;
  if (isAlreadySettled?.(reason, fill) && findSettlement) {
    const hash = await findSettlement(fill);
    const receipt = hash === null ? null : await receiptOf(client, hash);
    // Its receipt must be a success, and carry the fill's log when we can tell.
    if (receipt?.status === 'success' && (logIndexesOf === undefined || logIndexesOf(receipt.logs, [fill]).has(fill.id))) {
      const watched: TxRecord = { nonce: null, fillIds: [fill.id], to: receipt.to ?? receipt.contractAddress!, data: '0x', gas: '0', versions: [{ hash: receipt.transactionHash, maxFeePerGas: '0', maxPriorityFeePerGas: '0' }], mined: null };
      const tracked = trackedFrom(watched, ctx.settings.now(), false);
      await markMined(ctx, tracked, receipt);
      await confirmIfDeep(ctx, tracked, await client.getBlockNumber());
      return;
    }
  }
  ctx.fail(fill, reason);
}
