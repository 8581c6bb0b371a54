import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnprojectedRecords } from '../../src/engine/projection/unprojected-records.ts';
import { orderRow } from '../../src/engine/projection/rows.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { USERS, WorkloadCommands } from '../helpers/engine-workload.ts';

const START_MS = 1_764_000_000_000;
const NOW_SEC = START_MS / 1000;

/**
 * What the records the tables lack answer for an order (src/engine/projection/unprojected-records.ts
 * `order`): settlement builds each fill's call from its orders' rows, and a maker filled after its
 * row was projected is answered whole from memory, as the table's row with the record's change.
 */
describe('unprojected records: an order changed after its row was projected', () => {
  it('is answered whole, equal to the stored row with the change applied', () => {
    const state = new EngineState();
    const workload = new WorkloadCommands();
    let seq = 0n;
    const apply = (commands: EngineCommand[]) => applyRecord(state, { seq: ++seq, atMs: START_MS + Number(seq), commands });
    apply(workload.publish());
    const maker = workload.toCommands({ kind: 'place', user: 0, market: 0, outcome: 0, side: 'SELL', cents: 40, units: 10, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], NOW_SEC).commands;
    const placed = apply(maker);
    const makerOrder = placed.changes.newOrders[0]!;
    // The tables hold the maker's row as placed; the fill's record is what they lack.
    const stored = orderRow(makerOrder, makerOrder.signed!);
    const taker = workload.toCommands({ kind: 'place', user: 1, market: 0, outcome: 0, side: 'BUY', cents: 40, units: 4, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], NOW_SEC).commands;
    const filled = apply(taker);
    const unprojected = new UnprojectedRecords();
    unprojected.add(filled.changes, 1, true);

    const answer = unprojected.order(makerOrder.id);
    assert.ok(answer && 'row' in answer, 'the order whole, with no read of the table');
    assert.equal(answer.row.matched_base_units, 4_000_000n);
    assert.equal(answer.row.signature, stored.signature);

    // Without the signed fields in memory (an order restored from a snapshot), the change to apply to the stored row.
    const image = filled.changes.orders.find((o) => o.id === makerOrder.id)!;
    const lean = new UnprojectedRecords();
    lean.add({ ...filled.changes, newOrders: [], orders: [{ ...image, whole: undefined }] }, 1, true);
    const change = lean.order(makerOrder.id);
    assert.ok(change && 'apply' in change);
    assert.deepEqual(answer.row, change.apply(stored));
  });
});

/**
 * What a reader of an account waits for (`lastSeqOf`, src/api/journal-reads.ts): the records that
 * touched its account, and a change of a market's state it did not make, since its reads carry its
 * markets' states (a position's oracle proposal: CI saw a proposal answered 200 missing from the
 * next read of another user's positions on PostgreSQL).
 */
describe('unprojected records: what a reader of an account waits for', () => {
  it("waits for its own records and for a market's change made by someone else, until the tables hold them", () => {
    const state = new EngineState();
    const workload = new WorkloadCommands();
    let seq = 0n;
    const apply = (commands: EngineCommand[]) => applyRecord(state, { seq: ++seq, atMs: START_MS + Number(seq), commands }).changes;
    const unprojected = new UnprojectedRecords();
    apply(workload.publish());
    unprojected.add(apply(workload.toCommands({ kind: 'split', user: 1, market: 0, units: 5 }, [], NOW_SEC).commands), 1, true);
    assert.equal(unprojected.lastSeqOf(USERS[1]!), 2n);
    assert.equal(unprojected.lastSeqOf(USERS[2]!), 0n, "another user's split is not waited for");
    unprojected.add(apply(workload.toCommands({ kind: 'propose', user: 0, market: 0, outcome: 'NO' }, [], NOW_SEC).commands), 1, true);
    for (const user of [0, 1, 2]) assert.equal(unprojected.lastSeqOf(USERS[user]!), 3n, `user ${user} waits for the proposal`);
    unprojected.projected(2n);
    assert.equal(unprojected.lastSeqOf(USERS[1]!), 3n);
    unprojected.projected(3n);
    for (const user of [0, 1, 2]) assert.equal(unprojected.lastSeqOf(USERS[user]!), 0n);
  });
});
