import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GroupCommitQueue } from '../../src/engine/group-commit-queue.ts';
import { QueueFullError } from '../../src/engine/queue-full-error.ts';

/** Submits the commands and, until they are all processed, notes 'turn' in `seen` at every turn of the event loop. */
async function submitCountingTurns(queue: GroupCommitQueue<number, number>, commands: number[], seen: string[]): Promise<void> {
  const done = Promise.all(commands.map((n) => queue.submit(n)));
  let ticking = true;
  const tick = () => {
    seen.push('turn');
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  await done;
  ticking = false;
}

describe('GroupCommitQueue', () => {
  it('groups commands that arrive during a commit into the next batch, in order', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstCommit = new Promise<void>((r) => { release = r; });
    const queue = new GroupCommitQueue<number, number>({
      capacity: 100,
      maxBatch: 10,
      async processBatch(commands) {
        batches.push(commands);
        if (batches.length === 1) await firstCommit;
        return commands.map((c) => c * 2);
      },
    });
    const first = queue.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1]], 'the first batch is committing');
    const later = [2, 3, 4].map((n) => queue.submit(n));
    release();
    assert.deepEqual(await Promise.all([first, ...later]), [2, 4, 6, 8]);
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
  });

  it('waits a turn of the event loop before a batch, so commands submitted in separate callbacks group', async () => {
    const batches: number[][] = [];
    const queue = new GroupCommitQueue<number, number>({ capacity: 100, maxBatch: 10, async processBatch(c) { batches.push(c); return c; } });
    // Each submit from its own microtask, as request handlers that finish one after another do.
    const results = await Promise.all([1, 2, 3].map((n) => Promise.resolve().then(() => Promise.resolve()).then(() => queue.submit(n))));
    assert.deepEqual(results, [1, 2, 3]);
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  it('splits batches at maxBatch', async () => {
    const sizes: number[] = [];
    const queue = new GroupCommitQueue<number, number>({ capacity: 100, maxBatch: 3, async processBatch(c) { sizes.push(c.length); return c; } });
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => queue.submit(n)));
    assert.deepEqual(sizes, [3, 3, 1]);
  });

  it('goes straight on to a waiting full batch for a store over the network, whose batches wait for the event loop anyway', async () => {
    const seen: string[] = [];
    const queue = new GroupCommitQueue<number, number>({
      capacity: 100,
      maxBatch: 2,
      async processBatch(c) {
        seen.push(`batch ${c.join(',')}`);
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(`end ${c.join(',')}`);
        return c;
      },
    });
    await submitCountingTurns(queue, [1, 2, 3, 4, 5, 6], seen);
    for (const [ended, next] of [['end 1,2', 'batch 3,4'], ['end 3,4', 'batch 5,6']] as const) {
      assert.equal(seen.indexOf(next), seen.indexOf(ended) + 1, `nothing between ${ended} and ${next}: ${seen.join(' | ')}`);
    }
  });

  it('refuses work beyond its capacity instead of growing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const queue = new GroupCommitQueue<number, number>({ capacity: 2, maxBatch: 1, async processBatch(c) { await gate; return c; } });
    const accepted = [queue.submit(1), queue.submit(2)];
    await assert.rejects(queue.submit(3), QueueFullError);
    release();
    assert.deepEqual(await Promise.all(accepted), [1, 2]);
  });

  it('fails every command of a batch whose commit fails, and goes on with the next', async () => {
    let calls = 0;
    const queue = new GroupCommitQueue<number, number>({
      capacity: 10,
      maxBatch: 2,
      async processBatch(c) {
        calls++;
        if (calls === 1) throw new Error('commit failed');
        return c;
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => queue.submit(n)));
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'fulfilled']);
    await queue.idle();
    assert.equal(queue.size, 0);
  });
});
