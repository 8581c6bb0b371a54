import { keccak256 } from '../../core/keccak.ts';

/**
 * Ids of what a journal record creates (orders, trades, references of balance moves), derived from
 * the record and never random, so that replaying the journal creates the same ids (DESIGN.md "One
 * journal is the truth"). Being derived, an id is not secret, and no access check relies on an id
 * being unguessable. Every UUID check of the API and the store takes both derivations.
 *
 * - `ordered` (records of version 2 on, `journal/record-codec.ts`): a version-7 UUID, the record's
 *   time in its leading 48 bits, then the low 12 bits of the record's sequence and 14 bits of the
 *   id's count in the record, then 48 bits of a hash. Ids sort as the journal made them, so a
 *   table's primary key grows at its right edge instead of at a random leaf, which in a large table
 *   costs 1.3-1.8 times the time an insert and 2.6 times the WAL (docs/engine-measurements.md
 *   "Random ids in large tables"); lists that break ties by id list in creation order. The hash
 *   keeps ids apart should the clock step back.
 * - `hashed` (records written before): a version-4-shaped UUID, all 122 bits from the hash. A
 *   replay must derive what the live engine derived, so those records keep it.
 */
export type IdDerivation = 'ordered' | 'hashed';

type IdKind = 'order' | 'trade' | 'split' | 'merge' | 'redeem' | 'redemption';

/** The hash part of an id: 16 bytes of keccak-256 over the kind, the record's sequence and the count. */
function hashBytes(kind: IdKind, seq: bigint, n: number): Uint8Array {
  return keccak256(`pmx-id:${kind}:${seq}:${n}`).subarray(0, 16);
}

export function hashedUuid(kind: IdKind, seq: bigint, n: number): string {
  const bytes = hashBytes(kind, seq, n);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return uuidText(bytes);
}

export function orderedUuid(kind: IdKind, seq: bigint, atMs: number, n: number): string {
  const bytes = hashBytes(kind, seq, n);
  let ms = atMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  const seqLow = Number(seq & 0xfffn);
  bytes[6] = 0x70 | (seqLow >> 8);
  bytes[7] = seqLow & 0xff;
  const count = n & 0x3fff;
  bytes[8] = 0x80 | (count >> 8);
  bytes[9] = count & 0xff;
  return uuidText(bytes);
}

function uuidText(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Hands out the ids of one record in the order its commands ask for them. */
export class RecordIds {
  private readonly counts = new Map<IdKind, number>();

  constructor(
    readonly seq: bigint,
    private readonly atMs: number,
    private readonly derivation: IdDerivation,
  ) {}

  next(kind: IdKind): string {
    const n = this.counts.get(kind) ?? 0;
    this.counts.set(kind, n + 1);
    return this.derivation === 'ordered' ? orderedUuid(kind, this.seq, this.atMs, n) : hashedUuid(kind, this.seq, n);
  }
}
