import type { Db } from '../../store/database.ts';
import { appendBlock, readChainTip } from '../../store/ledger-journal-repository.ts';
import type { SealedBlock } from '../types.ts';
import { blockHash } from './hashes.ts';

/** A block holds at most this many transactions; a backlog is sealed over several calls. */
export const MAX_BLOCK_TRANSACTIONS = 5_000;

/**
 * Seals committed, unsealed transactions into the next block: its hash covers the parent's hash
 * and its transactions' hashes in sequence order, so rewriting any recorded transaction breaks
 * every later block. The chain head row is locked, so concurrent sealers queue rather than fork;
 * ordinary ledger writes never touch that row.
 */
export async function sealNextBlock(tx: Db, nowMs: number): Promise<SealedBlock | null> {
  const { head, unsealed: pending } = await readChainTip(tx, MAX_BLOCK_TRANSACTIONS);
  if (pending.length === 0) return null;
  const number = head.number + 1n;
  const txHashes = pending.map((p) => p.txHash);
  const hash = blockHash({ number, parentHash: head.hash, sealedAtMs: nowMs, txHashes });
  await appendBlock(tx, { number, hash, parentHash: head.hash, sealedAt: new Date(nowMs), seqs: pending.map((p) => p.seq) });
  return { number, hash, parentHash: head.hash, txHashes };
}
