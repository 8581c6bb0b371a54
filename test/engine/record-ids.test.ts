import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { hashedUuid, orderedUuid } from '../../src/engine/state/ids.ts';
import { WorkloadCommands } from '../helpers/engine-workload.ts';

const START_MS = 1_764_000_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A record that places a resting order and one that takes it: an order id and a trade id each. */
function placeAndTake(): EngineCommand[][] {
  const workload = new WorkloadCommands();
  const nowSec = START_MS / 1000;
  const place = (user: number, side: 'BUY' | 'SELL') =>
    workload.toCommands({ kind: 'place', user, market: 0, outcome: 0, side, cents: 40, units: 10, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], nowSec).commands;
  return [workload.publish(), place(0, 'SELL'), place(1, 'BUY')];
}

/** Journals the records as text (legacy ones written as before records carried a version) and replays them. */
function replay(records: EngineCommand[][], legacy: (index: number) => boolean) {
  const state = new EngineState();
  return records.map((commands, i) => {
    const text = encodeRecord({ seq: BigInt(i + 1), atMs: START_MS + i, commands, ...(legacy(i) ? { ids: 'hashed' as const } : {}) });
    return { text, applied: applyRecord(state, decodeRecord(text)) };
  });
}

describe('record ids (src/engine/state/ids.ts)', () => {
  it('derives hashed ids as they were before records carried a version, so old journals replay to the same ids', () => {
    // Values of the derivation before this change: a journal written then holds them.
    assert.equal(hashedUuid('order', 1n, 0), 'bde2dd10-75d9-441c-ac02-fd374c01b793');
    assert.equal(hashedUuid('trade', 123_456_789n, 7), '991c2b08-dd47-4af7-8899-c45ad1d4dd5a');
  });

  it('makes version-7 UUIDs that carry the record time and sort as the journal made them', () => {
    const id = orderedUuid('order', 5n, START_MS, 0);
    assert.match(id, UUID);
    assert.equal(id[14], '7', 'version 7');
    assert.equal(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16), START_MS, 'the leading 48 bits are the record time');

    type Made = { atMs: number; seq: number; n: number };
    // Records in journal order: time never steps back, fewer than 4,096 records in one millisecond, fewer than 16,384 ids of a kind in one record.
    const made = fc.record({ atMs: fc.integer({ min: START_MS, max: START_MS + 10_000 }), seq: fc.integer({ min: 1, max: 1_000_000 }), n: fc.integer({ min: 0, max: 16_383 }) });
    const before = (a: Made, b: Made) => a.atMs < b.atMs || (a.atMs === b.atMs && (a.seq < b.seq || (a.seq === b.seq && a.n < b.n)));
    fc.assert(fc.property(made, made, (a, b) => {
      fc.pre(a.atMs !== b.atMs || Math.abs(a.seq - b.seq) < 4_096);
      const idA = orderedUuid('trade', BigInt(a.seq), a.atMs, a.n);
      const idB = orderedUuid('trade', BigInt(b.seq), b.atMs, b.n);
      assert.match(idA, UUID);
      if (before(a, b)) assert.ok(idA < idB, `${idA} sorts before ${idB}`);
      else if (before(b, a)) assert.ok(idB < idA, `${idB} sorts before ${idA}`);
      else assert.equal(idA, idB);
    }));
  });

  it('keeps ids apart when the clock steps back onto a millisecond used before', () => {
    // Records 4,096 apart share the sequence bits; their hash bits still tell them apart.
    assert.notEqual(orderedUuid('order', 1n, START_MS, 0), orderedUuid('order', 4_097n, START_MS, 0));
    assert.notEqual(orderedUuid('order', 1n, START_MS, 0), orderedUuid('trade', 1n, START_MS, 0));
  });

  it('journals new records at version 5 with ordered ids, and replays records without a version with hashed ones', () => {
    const records = placeAndTake();
    const current = replay(records, () => false);
    const legacy = replay(records, () => true);
    assert.equal(JSON.parse(current[1]!.text).v, 5);
    assert.equal(JSON.parse(legacy[1]!.text).v, undefined, 'written as before');

    const ids = (run: typeof current) => ({ order: run[1]!.applied.changes.newOrders[0]!.id, trade: run[2]!.applied.changes.trades[0]!.id });
    assert.deepEqual(ids(current), { order: orderedUuid('order', 2n, START_MS + 1, 0), trade: orderedUuid('trade', 3n, START_MS + 2, 0) });
    assert.deepEqual(ids(legacy), { order: hashedUuid('order', 2n, 0), trade: hashedUuid('trade', 3n, 0) });

    // A journal that changed derivation part-way replays each record as it was written.
    const mixed = replay(records, (i) => i < 2);
    assert.deepEqual(ids(mixed), { order: hashedUuid('order', 2n, 0), trade: orderedUuid('trade', 3n, START_MS + 2, 0) });
  });

  it('refuses a record of a version this build does not read', () => {
    const text = encodeRecord({ seq: 1n, atMs: START_MS, commands: [] }).replace(/"v":\d+/, '"v":6');
    assert.throws(() => decodeRecord(text), /version 6/);
  });
});
