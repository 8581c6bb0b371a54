import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BloomFilter } from '../../src/core/bloom-filter.ts';

const orderHash = () => `0x${randomBytes(32).toString('hex')}`;

describe('BloomFilter', () => {
  it('never misses a key it was given, whatever the keys and the size', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 300 }), fc.integer({ min: 1, max: 2_000 }), (keys, capacity) => {
        const filter = new BloomFilter(capacity);
        for (const key of keys) filter.add(key);
        assert.ok(keys.every((key) => filter.mightContain(key)));
        assert.equal(filter.size, keys.length);
        assert.equal(filter.full, keys.length > capacity);
      }),
    );
  });

  it('answers "maybe" for about 1% of other order hashes at its capacity, and grows worse past it', () => {
    const falsePositives = (filter: BloomFilter) => {
      let count = 0;
      for (let i = 0; i < 20_000; i++) if (filter.mightContain(orderHash())) count++;
      return count / 20_000;
    };
    const filter = new BloomFilter(20_000);
    for (let i = 0; i < 20_000; i++) filter.add(orderHash());
    const atCapacity = falsePositives(filter);
    // Ten bits and seven probes per key give 0.8% in theory; the bound leaves room for chance.
    assert.ok(atCapacity < 0.02, `false positives at capacity: ${atCapacity}`);
    for (let i = 0; i < 40_000; i++) filter.add(orderHash());
    assert.ok(filter.full);
    assert.ok(falsePositives(filter) > atCapacity);
  });

  it('answers no key of an empty filter', () => {
    const filter = new BloomFilter(1_000);
    assert.equal([orderHash(), '', 'x'].some((key) => filter.mightContain(key)), false);
  });
});
