import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isValidSlug, MAX_SLUG_LENGTH, slugify, withSuffix } from '../../src/core/slug.ts';

describe('slug', () => {
  it('makes slugs from names', () => {
    assert.equal(slugify('Will it rain in Zürich?', 'event'), 'will-it-rain-in-zurich');
    assert.equal(slugify('  BTC > $100k by 2027!  ', 'event'), 'btc-100k-by-2027');
    assert.equal(slugify('???', 'market'), 'market');
  });

  it('always gives a valid slug with room for a suffix', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 99_999 }), (name, n) => {
      const slug = slugify(name, 'event');
      return isValidSlug(slug) && isValidSlug(withSuffix(slug, n)) && slug.length <= MAX_SLUG_LENGTH - 10;
    }));
  });

  it('validates given slugs', () => {
    assert.equal(isValidSlug('a-b-1'), true);
    for (const bad of ['', 'A', 'a--b', '-a', 'a-', 'a b', 'a_b', 'x'.repeat(MAX_SLUG_LENGTH + 1)]) assert.equal(isValidSlug(bad), false, bad);
  });

  it('numbers alternatives from 2', () => {
    assert.equal(withSuffix('s', 1), 's');
    assert.equal(withSuffix('s', 2), 's-2');
  });
});
