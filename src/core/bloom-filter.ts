/** Bits per key the filter is sized for: with seven probes, about 1% false positives at capacity. */
const BITS_PER_KEY = 10;
const PROBES = 7;
/** Typed arrays index words with 32-bit integers; 2^31 bits (256 MiB) is far past any use here. */
const MAX_BITS = 2 ** 31;

/**
 * A Bloom filter of strings: `mightContain` is never false for a key that was added, and true for
 * about 1% of the others while no more than `capacity` keys were added (more as it overfills, which
 * `full` tells). The probes are double hashing over two 32-bit FNV-1a style hashes of the key's
 * characters: cheap for the 66-character order hashes it holds, with no allocation per call.
 */
export class BloomFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;
  /** Keys added (a key added twice counts twice). */
  size = 0;
  private h1 = 0;
  private h2 = 0;

  constructor(readonly capacity: number) {
    let bits = 64;
    while (bits < capacity * BITS_PER_KEY && bits < MAX_BITS) bits *= 2;
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** Whether more keys were added than the filter was sized for: its false positives grow past 1%. */
  get full(): boolean {
    return this.size > this.capacity;
  }

  add(key: string): void {
    this.hash(key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (this.h1 + Math.imul(i, this.h2)) & this.mask;
      this.words[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.size++;
  }

  mightContain(key: string): boolean {
    this.hash(key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (this.h1 + Math.imul(i, this.h2)) & this.mask;
      if ((this.words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** Sets the key's two hashes; the second is odd, so the probes are distinct modulo the power-of-two size. */
  private hash(key: string): void {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.h1 = avalanche(a);
    this.h2 = avalanche(b) | 1;
  }
}

/** Murmur3's finaliser: every bit of the input moves every bit of the output. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
