import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { within } from '../../src/core/within.ts';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('within', () => {
  it("is the work's outcome when it settles in time, and late is never called", async () => {
    let called = false;
    const late = () => {
      called = true;
      return 'late';
    };
    assert.equal(await within(after(5, 'done'), 1_000, late), 'done');
    await assert.rejects(within(Promise.reject(new Error('work failed')), 1_000, late), /work failed/);
    await after(20, undefined);
    assert.equal(called, false);
  });

  it("is late's value, or its error, when the wait runs out first", async () => {
    assert.equal(await within(after(1_000, 'done'), 5, () => 'late'), 'late');
    await assert.rejects(within(after(1_000, 'done'), 5, () => { throw new Error('gave up'); }), /gave up/);
  });
});
