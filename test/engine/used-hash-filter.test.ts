import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { UsedHashFilter, type ReadHashChunk } from '../../src/engine/used-hash-filter.ts';

const orderHash = () => `0x${randomBytes(32).toString('hex')}`;
const hashes = (count: number) => Array.from({ length: count }, orderHash);

/**
 * The store's hashes as `readOrderHashChunk` gives them (in order, chunk after chunk; the
 * position is the index here), each read waiting for `release` when the test holds the reads.
 */
function storeOf(stored: string[]) {
  const held: (() => void)[] = [];
  let holding = false;
  const readChunk: ReadHashChunk = async (limit, after) => {
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    const start = after === undefined ? 0 : Number(after);
    const end = Math.min(stored.length, start + limit);
    return { hashes: stored.slice(start, end), next: end - start === limit && end < stored.length ? String(end) : undefined };
  };
  return {
    readChunk,
    hold: () => { holding = true; },
    release: () => { holding = false; for (const resume of held.splice(0)) resume(); },
  };
}

/** Waits until the filter answers (its reads run on promises, not timers). */
async function built(filter: UsedHashFilter): Promise<void> {
  for (let turn = 0; !filter.ready; turn++) {
    assert.ok(turn < 10_000, 'the filter was never built');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('UsedHashFilter: which new order hashes a batch must look up in the store', () => {
  it('sends every hash to the store until built, then only the stored ones and about 1% of the new', async () => {
    const stored = hashes(50_000);
    const store = storeOf(stored);
    const filter = new UsedHashFilter({ readChunk: store.readChunk, unprojected: () => [], onError: assert.fail });
    const fresh = hashes(10_000);
    assert.deepEqual(filter.mayBeStored(fresh), fresh);
    filter.start();
    await built(filter);
    assert.deepEqual(filter.mayBeStored(stored), stored);
    assert.ok(filter.mayBeStored(fresh).length < 200, `${filter.mayBeStored(fresh).length} of 10,000 new hashes sent to the store`);
  });

  it('keeps the hashes added while it is read, and the journal\'s not yet in the tables', async () => {
    const store = storeOf(hashes(30_000));
    const journaled = hashes(3);
    const filter = new UsedHashFilter({ readChunk: store.readChunk, unprojected: () => journaled, onError: assert.fail });
    store.hold();
    filter.start();
    const durableMeanwhile = hashes(5);
    filter.add(durableMeanwhile);
    store.release();
    await built(filter);
    assert.deepEqual(filter.mayBeStored([...journaled, ...durableMeanwhile]), [...journaled, ...durableMeanwhile]);
  });

  it('reads again into a larger filter when the store holds more than it was sized for, and never misses one meanwhile', async () => {
    const stored = hashes(5_000);
    const store = storeOf(stored);
    const filter = new UsedHashFilter({ readChunk: store.readChunk, unprojected: () => [], onError: assert.fail, firstCapacity: 1_000 });
    filter.start();
    await built(filter);
    // The overfull filter answers while the larger one is read; new orders keep coming.
    const later = hashes(3_000);
    filter.add(later);
    assert.deepEqual(filter.mayBeStored([...stored, ...later]), [...stored, ...later]);
    const fresh = hashes(10_000);
    for (let turn = 0; filter.mayBeStored(fresh).length > 300; turn++) {
      assert.ok(turn < 10_000, 'no larger filter replaced the overfull one');
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(filter.mayBeStored([...stored, ...later]), [...stored, ...later]);
  });

  it('answers nothing once stopped, and a read finishing after the stop installs nothing', async () => {
    const store = storeOf(hashes(1_000));
    const filter = new UsedHashFilter({ readChunk: store.readChunk, unprojected: () => [], onError: assert.fail });
    filter.start();
    await built(filter);
    filter.stop();
    const fresh = hashes(100);
    assert.deepEqual(filter.mayBeStored(fresh), fresh);
    store.hold();
    filter.start();
    filter.stop();
    store.release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(filter.ready, false);
  });

  it('reports a failed read and goes on sending every hash to the store', async () => {
    const errors: unknown[] = [];
    const filter = new UsedHashFilter({ readChunk: () => Promise.reject(new Error('store unreachable')), unprojected: () => [], onError: (error) => errors.push(error) });
    filter.start();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(errors.length, 1);
    const fresh = hashes(10);
    assert.deepEqual(filter.mayBeStored(fresh), fresh);
  });
});
