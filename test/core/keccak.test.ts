import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { keccak256, keccak256Hex } from '../../src/core/keccak.ts';

/** The WebAssembly keccak against @noble/hashes (which viem uses): the same digests, whatever the input. */
describe('keccak-256 (core/keccak.ts)', () => {
  it('gives noble\'s digest of any bytes, including empty and longer than a block', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 1000 }), (bytes) => {
      const expected = keccak_256(bytes);
      assert.deepEqual(keccak256(bytes), expected);
      assert.equal(keccak256Hex(bytes), `0x${bytesToHex(expected)}`);
    }), { numRuns: 500 });
  });

  it('hashes a string as its UTF-8 bytes', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
      assert.equal(keccak256Hex(text), `0x${bytesToHex(keccak_256(utf8ToBytes(text)))}`);
    }), { numRuns: 300 });
  });

  it('returns a digest of its own that later hashes do not overwrite', () => {
    const first = keccak256(new Uint8Array([1]));
    const copy = first.slice();
    keccak256(new Uint8Array([2]));
    assert.deepEqual(first, copy);
    assert.equal(keccak256Hex(''), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });
});
