import type { Hex, TransactionReceipt } from 'viem';
import { broadcast, type BroadcastOutcome } from './broadcast.ts';
import { blockHashAt, nonceAt, receiptOf, receiptOfAny } from './chain-reads.ts';
import type { SenderContext, Tracked } from './context.ts';
import { confirmIfDeep, markMined } from './inclusion.ts';
import { resendLostConfirmed } from './lost-confirmed.ts';
import { replacementFees } from '../../../core/transaction-fees.ts';
import { feesOf, signedAgain, signVersion } from './signer.ts';
import type { Fill } from './types.ts';

/**
 * One look at every tracked transaction, in nonce order: unmined ones are mined (or reverted, or
 * displaced, or replaced when stuck); mined ones are confirmed, or found reorged out. Then a
 * confirmed one that a reorg deeper than `confirmations` took, which the others wait behind, is
 * sent again (lost-confirmed.ts).
 */
export async function track<F extends Fill>(ctx: SenderContext<F>): Promise<void> {
  if (ctx.tracked.size === 0) return;
  const { client, account } = ctx.settings;
  // Read before the receipts: a nonce used by then and no receipt after means a transaction not ours used it.
  const [head, minedNonce] = await Promise.all([client.getBlockNumber(), nonceAt(client, account.address, 'latest')]);
  const all = [...ctx.tracked.values()].sort((a, b) => (a.record.nonce ?? -1) - (b.record.nonce ?? -1));
  // Mined ones: is their block still canonical? Unmined ones: is a version in a block?
  const looks = await Promise.all(all.map(({ record }) => (record.mined ? blockHashAt(client, record.mined.blockNumber) : receiptOfAny(client, record.versions.map((v) => v.hash)))));
  const requeued: F[] = [];
  for (const [i, tracked] of all.entries()) {
    const look = looks[i]!;
    if (tracked.record.mined !== null) await checkMined(ctx, tracked, look as Hex | null, head, requeued);
    else await checkUnmined(ctx, tracked, look as TransactionReceipt | null, head, minedNonce, requeued);
  }
  ctx.requeue(requeued);
  await resendLostConfirmed(ctx, minedNonce);
}

async function checkMined<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, canonicalHash: Hex | null, head: bigint, requeued: F[]): Promise<void> {
  const mined = tracked.record.mined!;
  if (canonicalHash === mined.blockHash) return confirmIfDeep(ctx, tracked, head);
  // Its block is no longer canonical: the fills are MATCHED again until a block holds them.
  for (const fill of ctx.fillsOf(tracked.record)) ctx.emit({ type: 'reorged', fill, txHash: mined.hash });
  await ctx.put(tracked, { ...tracked.record, mined: null });
  const receipt = await receiptOf(ctx.settings.client, mined.hash);
  if (receipt !== null) return included(ctx, tracked, receipt, head, requeued);
  if (tracked.record.nonce === null) {
    // Not ours to resend: its fills are simulated again, and found settled if that transaction comes back.
    await ctx.drop(tracked.record);
    requeued.push(...ctx.fillsOf(tracked.record));
    return;
  }
  // The same nonce, signed again at the fees that were mined: only one version can ever be mined.
  const version = tracked.record.versions.find((v) => v.hash === mined.hash)!;
  await rebroadcast(ctx, tracked, feesOf(version));
}

async function checkUnmined<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, receipt: TransactionReceipt | null, head: bigint, minedNonce: number, requeued: F[]): Promise<void> {
  const { record } = tracked;
  if (receipt !== null) return included(ctx, tracked, receipt, head, requeued);
  if (record.nonce !== null && minedNonce > record.nonce) {
    // Displaced: another transaction used the nonce. Nothing of ours settled.
    if (++tracked.displacedLooks < 2) return;
    await ctx.drop(record);
    requeued.push(...ctx.fillsOf(record));
    return;
  }
  tracked.displacedLooks = 0;
  if (tracked.rebroadcast) return rebroadcast(ctx, tracked, feesOf(record.versions.at(-1)!));
  if (ctx.settings.now() - tracked.sentAtMs >= ctx.settings.replaceAfterMs) await replace(ctx, tracked);
}

/** In a canonical block: mined, or reverted. */
async function included<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, receipt: TransactionReceipt, head: bigint, requeued: F[]): Promise<void> {
  if (receipt.status !== 'success') return minedRevert(ctx, tracked, receipt, requeued);
  await markMined(ctx, tracked, receipt);
  await confirmIfDeep(ctx, tracked, head);
}

/**
 * Mined and reverted: nothing settled (state moved between simulation and inclusion). The fills go
 * back to the queue to be simulated again, which isolates the one at fault, unless they have
 * reverted on chain too often.
 */
async function minedRevert<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, receipt: TransactionReceipt, requeued: F[]): Promise<void> {
  await ctx.drop(tracked.record);
  for (const fill of ctx.fillsOf(tracked.record)) {
    const reverts = (ctx.minedReverts.get(fill.id) ?? 0) + 1;
    ctx.minedReverts.set(fill.id, reverts);
    if (reverts < ctx.settings.maxMinedReverts) requeued.push(fill);
    else ctx.fail(fill, { name: 'RevertedOnChain', args: [reverts], message: `its transactions reverted on chain ${reverts} times though simulations passed` }, receipt.transactionHash);
  }
}

/**
 * Stuck: the same nonce re-signed with higher fees, persisted, then broadcast. A version the node
 * refused is sent again as it is: raising its fees while the key has no gas for them would only
 * raise what the key must hold before anything settles (20% every `replaceAfterMs`).
 */
async function replace<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked): Promise<void> {
  const { feeBumpPercent, maxFeePerGasCap } = ctx.settings;
  const last = feesOf(tracked.record.versions.at(-1)!);
  const fees = tracked.refused ? null : replacementFees(last, await ctx.currentFees(), feeBumpPercent, maxFeePerGasCap);
  if (fees === null) return rebroadcast(ctx, tracked, last);
  const { version, raw } = await signVersion(ctx.settings.account, ctx.chainId, tracked.record, fees);
  await ctx.put(tracked, { ...tracked.record, versions: [...tracked.record.versions, version] });
  await send(ctx, tracked, raw);
}

/** Broadcasts a version already persisted, unchanged (its hash is checked: signing is deterministic). */
async function rebroadcast<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, fees: ReturnType<typeof feesOf>): Promise<void> {
  const raw = await signedAgain(ctx.settings.account, ctx.chainId, tracked.record, fees);
  tracked.rebroadcast = false;
  await send(ctx, tracked, raw);
}

/** Broadcasts a version of `tracked`. Whatever the node answers, the next look decides from receipts and the mined nonce. */
export async function send<F extends Fill>(ctx: SenderContext<F>, tracked: Tracked, raw: `0x${string}`): Promise<BroadcastOutcome> {
  tracked.sentAtMs = ctx.settings.now();
  const { outcome } = await broadcast(ctx.settings, raw);
  tracked.refused = outcome === 'error';
  return outcome;
}
