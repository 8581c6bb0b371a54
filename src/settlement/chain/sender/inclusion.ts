import type { TransactionReceipt } from 'viem';
import type { SenderContext, Tracked } from './context.ts';
import { keepConfirmed } from './lost-confirmed.ts';
import type { Fill } from './types.ts';

/** A successful receipt: the record is persisted as mined, then each fill is reported mined. */
export async function markMined<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, receipt: TransactionReceipt): Promise<void> {
  if (receipt.status !== 'success') throw new Error(`markMined takes successful receipts; ${receipt.transactionHash} reverted`);
  const mined = { hash: receipt.transactionHash, blockNumber: Number(receipt.blockNumber), blockHash: receipt.blockHash };
  await ctx.put(tracked, { ...tracked.record, mined });
  const fills = ctx.fillsOf(tracked.record);
  const logIndexes = ctx.settings.logIndexesOf?.(receipt.logs, fills);
  for (const fill of fills) {
    const logIndex = logIndexes?.get(fill.id);
    ctx.emit({ type: 'mined', fill, txHash: mined.hash, blockNumber: mined.blockNumber, blockHash: mined.blockHash, ...(logIndex === undefined ? {} : { logIndex }) });
  }
}

/** Confirms a mined record once `confirmations` blocks are built on its block, and forgets it (keeping it in memory a while: lost-confirmed.ts). */
export async function confirmIfDeep<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, head: bigint): Promise<void> {
  const { mined } = tracked.record;
  if (mined === null || head < BigInt(mined.blockNumber + ctx.settings.confirmations)) return;
  await ctx.drop(tracked.record);
  keepConfirmed(ctx, tracked.record);
  for (const fill of ctx.fillsOf(tracked.record)) {
    ctx.release(fill);
    ctx.emit({ type: 'confirmed', fill, txHash: mined.hash, blockNumber: mined.blockNumber });
  }
}
