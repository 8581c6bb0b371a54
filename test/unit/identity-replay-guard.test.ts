import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ReplayGuard } from '../../src/identity/replay-guard.ts';

const WINDOW_MS = 1_000;

/** The memory guard's synchronous first-sighting check (check and record with no await between). */
const firstSighting = (guard: ReplayGuard, key: string, timestampMs: number, nowMs: number) => guard.claimNow(key, undefined, '', timestampMs, nowMs);

describe('replay guard', () => {
  it('accepts a signature once while its timestamp is inside the window', () => {
    const guard = new ReplayGuard(WINDOW_MS);
    assert.equal(firstSighting(guard, 'k:sig', 5_000, 5_000), true);
    assert.equal(firstSighting(guard, 'k:sig', 5_000, 5_500), false);
    assert.equal(firstSighting(guard, 'k:sig', 5_000, 6_000), false);
    assert.equal(firstSighting(guard, 'k:other', 5_000, 6_000), true);
  });

  it('accepts each new signature and refuses a seen one while its timestamp is in the window', () => {
    // Requests arrive in time order; each carries a timestamp inside the window of its arrival.
    const arrival = fc.record({ key: fc.integer({ min: 0, max: 20 }), stepMs: fc.integer({ min: 0, max: 400 }), skewMs: fc.integer({ min: -WINDOW_MS, max: WINDOW_MS }) });
    fc.assert(fc.property(fc.array(arrival, { maxLength: 300 }), (arrivals) => {
      const guard = new ReplayGuard(WINDOW_MS);
      const accepted = new Set<string>();
      let now = 10_000;
      for (const { key, stepMs, skewMs } of arrivals) {
        now += stepMs;
        const timestamp = now + skewMs;
        const id = `${key}@${timestamp}`;
        const first = firstSighting(guard, id, timestamp, now);
        // A new signature is always accepted; a seen one is refused while the window check passes.
        if (!accepted.has(id)) assert.equal(first, true);
        else if (Math.abs(now - timestamp) <= WINDOW_MS) assert.equal(first, false);
        accepted.add(id);
      }
    }));
  });

  it('lets a key be claimed again only by naming its current holder (a reconnect)', async () => {
    const guard = new ReplayGuard(WINDOW_MS);
    assert.equal(await guard.claim('k:sig', undefined, 'socket-1', 5_000, 5_000), true);
    assert.equal(await guard.claim('k:sig', undefined, 'socket-2', 5_000, 5_100), false);
    assert.equal(await guard.claim('k:sig', 'socket-9', 'socket-2', 5_000, 5_100), false);
    assert.equal(await guard.claim('k:sig', 'socket-1', 'socket-2', 5_000, 5_200), true);
    assert.equal(await guard.claim('k:sig', 'socket-1', 'socket-3', 5_000, 5_300), false);
    assert.equal(await guard.claim('k:sig', 'socket-2', 'socket-3', 5_000, 5_300), true);
    // A signature seen on REST has no holder a connection could name.
    assert.equal(await guard.firstSighting('k:rest', 5_000, 5_000), true);
    assert.equal(await guard.claim('k:rest', '', 'socket-1', 5_000, 5_000), false);
  });

  it('forgets entries a window after their timestamp, bounding memory', () => {
    const guard = new ReplayGuard(WINDOW_MS);
    for (let i = 0; i < 1_000; i++) firstSighting(guard, `k${i}`, 1_000 + i, 1_000 + i);
    assert.equal(guard.size, 1_000);
    firstSighting(guard, 'late', 10_000, 10_000);
    assert.equal(guard.size, 1);
  });
});
