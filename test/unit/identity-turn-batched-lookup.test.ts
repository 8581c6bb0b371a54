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

  it('fails every question of the turn when the read fails, and reads again afterwards', async () => {
    const failure = new Error('store down');
    const { lookup } = recordingLookup([], failure);
    const results = await Promise.allSettled([lookup.has('a'), lookup.has('b')]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
    assert.equal((results[0] as PromiseRejectedResult).reason, failure);
    await assert.rejects(lookup.has('c'), failure);
  });
});
