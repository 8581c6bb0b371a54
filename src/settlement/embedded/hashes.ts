import { keccak256Hex } from '../../core/keccak.ts';

/**
 * Transaction and block hashes of the embedded ledger: keccak-256 over a canonical text of what
 * was recorded, so anyone holding the journal can recompute and check them (the audit does).
 */
export interface HashedEntry {
  account: string;
  asset: string;
  amount: bigint;
  reason: string;
}

export function transactionHash(tx: { seq: bigint; kind: string; ref: string; createdAtMs: number; entries: HashedEntry[] }): string {
  const lines = tx.entries.map((e) => `${e.account} ${e.asset} ${e.amount} ${e.reason}`);
  return keccak256Hex(['pmx-ledger-tx-v1', tx.seq, tx.kind, tx.ref, tx.createdAtMs, ...lines].join('\n'));
}

export function blockHash(block: { number: bigint; parentHash: string; sealedAtMs: number; txHashes: string[] }): string {
  return keccak256Hex(['pmx-ledger-block-v1', block.number, block.parentHash, block.sealedAtMs, ...block.txHashes].join('\n'));
}

export const GENESIS_HASH = `0x${'0'.repeat(64)}`;
