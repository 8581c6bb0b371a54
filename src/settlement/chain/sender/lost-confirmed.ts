import { broadcast } from './broadcast.ts';
import { receiptOf } from './chain-reads.ts';
import type { SenderContext } from './context.ts';
import { feesOf, signedAgain } from './signer.ts';
import type { Fill, TxRecord } from './types.ts';

/** How many of its latest confirmed transactions a sender keeps in memory, to send again if a reorg deeper than `confirmations` takes them. */
const CONFIRMED_KEPT = 256;

/** What `onError` is handed about a deep reorg: not a failed step, an event the operator must know of. */
export class DeepReorgError extends Error {
  override readonly name = 'DeepReorgError';
}

/** A confirmed transaction of ours, kept after its record is dropped. */
export interface ConfirmedTx {
  readonly record: TxRecord & { readonly mined: NonNullable<TxRecord['mined']> };
  /** When it was sent again after a deep reorg took it; unset once its nonce is used again and that was looked at. */
  resentAtMs?: number;
}

/**
 * A reorg deeper than `confirmations` can take a confirmed transaction of ours off the chain (anvil
 * drops the transactions of the blocks it removes; a node need not return them to its pool). The
 * key's mined nonce then falls back to a nonce no tracked record holds, and every later
 * transaction of the key waits behind that gap for ever: settlement stops. So each look compares
 * the mined nonce with the nonces sent: at a gap held two looks, the confirmed transaction of that
 * nonce, kept in memory, is sent again as it was (same nonce and fees, so the same hash: it
 * settles nothing twice), at most once every `replaceAfterMs`, and `onError` says so, since its
 * fills were reported confirmed. A gap with no such transaction (the process restarted since) is
 * reported the same way: only the operator can fill it. Once mined again, a resent transaction's
 * receipt is checked: a revert means its fills are confirmed here and not settled on chain.
 */
export async function resendLostConfirmed<F extends Fill>(ctx: SenderContext<F>, minedNonce: number): Promise<void> {
  await checkResent(ctx, minedNonce);
  const held = [...ctx.tracked.values()].some(({ record }) => record.nonce === minedNonce);
  if (minedNonce >= ctx.nextNonce || held) {
    ctx.gapLooks = 0;
    return;
  }
  // One look may see a node's nonce before its receipts, or mid-reorg: a gap counts from the second.
  if (++ctx.gapLooks < 2) return;
  const nowMs = ctx.settings.now();
  const lost = ctx.confirmed.get(minedNonce);
  const lastMs = lost?.resentAtMs ?? ctx.gapReportedAtMs;
  if (lastMs !== undefined && nowMs - lastMs < ctx.settings.replaceAfterMs) return;
  if (lost === undefined) {
    ctx.gapReportedAtMs = nowMs;
    ctx.settings.onError(new DeepReorgError(`settlement key ${ctx.settings.account.address}: nonce ${minedNonce} is missing from the chain (a reorg deeper than the ${ctx.settings.confirmations} confirmations took a transaction this process no longer holds); its later transactions wait until a transaction of that nonce is mined`));
    return;
  }
  lost.resentAtMs = nowMs;
  const { record } = lost;
  const version = record.versions.find((v) => v.hash === record.mined.hash)!;
  const raw = await signedAgain(ctx.settings.account, ctx.chainId, record, feesOf(version));
  ctx.settings.onError(new DeepReorgError(`settlement key ${ctx.settings.account.address}: transaction ${record.mined.hash} (nonce ${minedNonce}, ${record.fillIds.length} fills confirmed in block ${record.mined.blockNumber}) was taken off the chain by a reorg deeper than the ${ctx.settings.confirmations} confirmations; sent again as the same transaction`));
  await broadcast(ctx.settings, raw);
}

/** Remembers a confirmed transaction of ours (the newest CONFIRMED_KEPT). */
export function keepConfirmed<F extends Fill>(ctx: SenderContext<F>, record: TxRecord): void {
  if (record.nonce === null || record.mined === null) return;
  ctx.confirmed.set(record.nonce, { record: record as ConfirmedTx['record'] });
  if (ctx.confirmed.size > CONFIRMED_KEPT) ctx.confirmed.delete(ctx.confirmed.keys().next().value!);
}

/** A resent transaction whose nonce is used now: mined again (forgotten, done) or reverted (told). */
async function checkResent<F extends Fill>(ctx: SenderContext<F>, minedNonce: number): Promise<void> {
  for (const [nonce, lost] of ctx.confirmed) {
    if (lost.resentAtMs === undefined || nonce >= minedNonce) continue;
    const receipt = await receiptOf(ctx.settings.client, lost.record.mined.hash);
    if (receipt === null) {
      // Not readable yet (a node may answer a block's nonce before its receipts), or the key was used elsewhere.
      if (ctx.settings.now() - lost.resentAtMs < ctx.settings.replaceAfterMs) continue;
      delete lost.resentAtMs;
      ctx.settings.onError(new DeepReorgError(`settlement key ${ctx.settings.account.address}: nonce ${nonce}, whose transaction ${lost.record.mined.hash} was sent again after a deep reorg, was used by another transaction: its ${lost.record.fillIds.length} fills are confirmed in the exchange's ledger and not settled on chain (pmx audit names them)`));
      continue;
    }
    delete lost.resentAtMs;
    if (receipt.status !== 'success') {
      ctx.settings.onError(new DeepReorgError(`settlement key ${ctx.settings.account.address}: transaction ${lost.record.mined.hash} (nonce ${nonce}), sent again after a deep reorg, reverted in block ${receipt.blockNumber}: its ${lost.record.fillIds.length} fills are confirmed in the exchange's ledger and not settled on chain (pmx audit names them)`));
    }
  }
}
