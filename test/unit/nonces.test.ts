import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryNonces } from '../../src/identity/nonces.ts';

/** Issue 38: unused sign-in nonces are kept in a bounded store that forgets them when they expire. */
describe('the in-process nonce store', () => {
  it('spends a nonce once, and not after it expired', async () => {
    const nonces = new MemoryNonces();
    await nonces.issue('a', 1_000, 1_000);
    await nonces.issue('b', 1_000, 1_000);
    assert.equal(await nonces.consume('a', 999), true);
    assert.equal(await nonces.consume('a', 999), false);
    assert.equal(await nonces.consume('b', 1_000), false);
    assert.equal(await nonces.consume('never', 0), false);
  });

  it('holds at most its capacity, dropping the oldest, and forgets expired nonces as new ones come', async () => {
    const nonces = new MemoryNonces(3);
    for (let i = 0; i < 5; i++) await nonces.issue(`n${i}`, 10_000 + i, 10_000);
    assert.equal(nonces.size, 3);
    assert.equal(await nonces.consume('n0', 0), false);
    assert.equal(await nonces.consume('n4', 0), true);
    // Issued at 20,000: every earlier nonce has expired by then.
    await nonces.issue('late', 30_000, 10_000);
    assert.equal(nonces.size, 1);
  });
});
