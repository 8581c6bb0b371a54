import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerClock, type SignedTimestamps } from '../../src/client/server-clock.ts';

/** What a browser's localStorage is to its page loads: one value every client reads and writes. */
function sharedStore(): SignedTimestamps & { value: number | undefined } {
  const store = {
    value: undefined as number | undefined,
    last: () => store.value,
    record: (ms: number) => {
      store.value = ms;
    },
  };
  return store;
}

describe('HMAC timestamps of the SDK', () => {
  it('never repeat within one client, even when its clock stands still', () => {
    const clock = new ServerClock();
    clock.sync(Date.now());
    const stamps = Array.from({ length: 1_000 }, () => clock.uniqueTimestampMs());
    assert.equal(new Set(stamps).size, stamps.length);
  });

  it('never coincide between clients sharing their signed timestamps, whatever their clock estimates', () => {
    const shared = sharedStore();
    // Two page loads of one key: each synced at its own moment, each with its own random spread.
    const clients = [new ServerClock(shared), new ServerClock(shared), new ServerClock(shared)];
    const serverNow = Date.now();
    for (const clock of clients) clock.sync(serverNow);
    const stamps: number[] = [];
    for (let round = 0; round < 500; round++) for (const clock of clients) stamps.push(clock.uniqueTimestampMs());
    assert.equal(new Set(stamps).size, stamps.length, 'no two clients signed the same millisecond');
    for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i]! > stamps[i - 1]!, 'each signs after the last one any of them signed');
    assert.equal(shared.value, stamps.at(-1));
  });

  it('ignore a shared timestamp far ahead of the server time (a server clock set back) instead of signing outside its window', () => {
    const shared = sharedStore();
    const clock = new ServerClock(shared);
    const serverNow = Date.now();
    clock.sync(serverNow);
    shared.value = serverNow + 60_000;
    const stamp = clock.uniqueTimestampMs();
    assert.ok(Math.abs(stamp - serverNow) < 5_000, `signed near the server's time (${stamp - serverNow} ms off)`);
    assert.equal(shared.value, stamp);
  });
});
