import { keccak256 } from '../../core/keccak.ts';

/**
 * Ids of what a journal record creates (orders, trades, references of balance moves), derived from
 * the record's position and never random, so that replaying the journal creates the same ids
 * (DESIGN.md "One journal is the truth"). `n` counts the ids of one kind a record has made so far.
 * The result is shaped as a version-4 UUID (the variant and version bits set), so every UUID
 * check of the API and the store takes it; being derived, it is not secret, and no access check
 * relies on an id being unguessable.
 */
export function derivedUuid(kind: string, seq: bigint, n: number): string {
  const bytes = keccak256(`pmx-id:${kind}:${seq}:${n}`).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Hands out the ids of one record in the order its commands ask for them. */
export class RecordIds {
  private readonly counts = new Map<string, number>();

  constructor(readonly seq: bigint) {}

  next(kind: 'order' | 'trade' | 'split' | 'merge' | 'redeem' | 'redemption'): string {
    const n = this.counts.get(kind) ?? 0;
    this.counts.set(kind, n + 1);
    return derivedUuid(kind, this.seq, n);
  }
}
