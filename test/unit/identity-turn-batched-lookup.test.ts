import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnBatchedLookup } from '../../src/identity/turn-batched-lookup.ts';

/** A lookup over a fixed set that records every read it is asked for. */
function recordingLookup(present: string[], failWith?: Error) {
  const reads: string[][] = [];
  const lookup = new TurnBatchedLookup(async (keys) => {
    reads.push(keys);
    if (failWith) throw failWith;
    return new Set(keys.filter((key) => present.includes(key)));
  });
  return { lookup, reads };
}

describe('TurnBatchedLookup', () => {
  it('answers every question of one turn with one read, each with its own answer', async () => {
    const { lookup, reads } = recordingLookup(['a', 'c']);
    const answers = await Promise.all(['a', 'b', 'c', 'a'].map((key) => lookup.has(key)));
    assert.deepEqual(answers, [true, false, true, true]);
    assert.deepEqual(reads, [['a', 'b', 'c']], 'one read, each key once');
  });

  it('reads again for questions asked in a later turn: an answer is never reused', async () => {
    const present = ['a'];
    const { lookup, reads } = recordingLookup(present);
    assert.equal(await lookup.has('a'), true);
    present.pop();
    assert.equal(await lookup.has('a'), false, 'the second question sees the store as it is now');
    assert.equal(reads.length, 2);
  });

  it('reads one at a time: questions asked while a read is in flight share the next read, which sees the store as it is then', async () => {
    const present = new Set(['a', 'b']);
    const reads: string[][] = [];
    let inFlight = 0;
    let release!: () => void;
    const lookup = new TurnBatchedLookup(async (keys) => {
      reads.push(keys);
      inFlight++;
      assert.equal(inFlight, 1, 'never two reads at once');
      const found = new Set(keys.filter((key) => present.has(key)));
      if (reads.length === 1) await new Promise<void>((resolve) => (release = resolve));
      inFlight--;
      return found;
    });
    const first = lookup.has('a');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reads.length, 1, 'the first read is in flight');
    // Asked in two later turns while it is in flight, after 'a' was revoked.
    present.delete('a');
    const later = [lookup.has('a'), lookup.has('b')];
    await new Promise((resolve) => setImmediate(resolve));
    const last = lookup.has('b');
    assert.equal(reads.length, 1, 'no read starts while one is in flight');
    release();
    assert.equal(await first, true, 'the first read answers as the store was when it ran');
    assert.deepEqual(await Promise.all([...later, last]), [false, true, true], 'the later questions see the revocation');
    assert.deepEqual(reads, [['a'], ['a', 'b']], 'the questions of both later turns share one read');
  });

  it('fails every question of the turn when the read fails, and reads again afterwards', async () => {
    const failure = new Error('store down');
    const { lookup } = recordingLookup([], failure);
    const results = await Promise.allSettled([lookup.has('a'), lookup.has('b')]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
    assert.equal((results[0] as PromiseRejectedResult).reason, failure);
    await assert.rejects(lookup.has('c'), failure);
  });
});
