import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { CreditOutcome } from '../../src/engine/state/balance-commands.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { stateViolations } from '../../src/engine/state/invariants.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import { COLLATERAL } from '../../src/settlement/types.ts';

const ALICE = '0x00000000000000000000000000000000000000a1';
const BOB = '0x00000000000000000000000000000000000000b0';
const KEY = '0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b';
let seq = 0n;

/** Credits as one record, through the journal's text as the engine writes and replays it. */
function apply(state: EngineState, ...commands: EngineCommand[]): CreditOutcome[] {
  seq += 1n;
  return applyRecord(state, decodeRecord(encodeRecord({ seq, atMs: 1_764_000_000_000, commands }))).outcomes as CreditOutcome[];
}

const credit = (account: string, amount: bigint, idempotencyKey?: string): EngineCommand => ({ kind: 'credit', account, amount, reason: 'DEPOSIT', ref: 'admin-credit:test', ...(idempotencyKey ? { idempotencyKey } : {}) });
const balance = (state: EngineState, account: string) => state.balances.get(account, COLLATERAL).balance;

/** The credit command with an idempotency key (src/engine/state/balance-commands.ts): once per key. */
describe('engine state: credits with an idempotency key', () => {
  it('credits once per key, within one record and after it: the same credit again is answered with the first transaction', () => {
    const state = new EngineState();
    const [first, again] = apply(state, credit(ALICE, 100n, KEY), credit(ALICE, 100n, KEY));
    assert.ok(first?.ok && again?.ok);
    assert.equal(first.replayed, false);
    assert.deepEqual([again.replayed, again.txHash, again.balance], [true, first.txHash, 100n]);
    const [later] = apply(state, credit(ALICE, 100n, KEY));
    assert.ok(later?.ok && later.replayed);
    assert.equal(balance(state, ALICE), 100n);
    assert.equal(state.ledger.credited, 100n);
    assert.deepEqual(stateViolations(state), []);
  });

  it('refuses the key for another account or amount, moving nothing; credits without a key are each made', () => {
    const state = new EngineState();
    apply(state, credit(ALICE, 100n, KEY));
    const conflict = { ok: false, code: 'CONFLICT', message: 'idempotencyKey was already used for a different credit' };
    assert.deepEqual(apply(state, credit(ALICE, 101n, KEY)), [conflict]);
    assert.deepEqual(apply(state, credit(BOB, 100n, KEY)), [conflict]);
    apply(state, credit(BOB, 5n), credit(BOB, 5n));
    assert.deepEqual([balance(state, ALICE), balance(state, BOB), state.ledger.credited], [100n, 10n, 110n]);
  });

  it('keeps the keys across a snapshot, and a state without them encodes as before', () => {
    const state = new EngineState();
    apply(state, credit(BOB, 5n));
    const withoutKeys = encodeSnapshot(state).chunks.join('');
    assert.ok(!withoutKeys.includes('\nK'));
    apply(state, credit(ALICE, 100n, KEY));
    const encoded = encodeSnapshot(state);
    const restored = decodeSnapshot(encoded.chunks);
    assert.equal(encodeSnapshot(restored).stateHash, encoded.stateHash);
    const [again] = apply(restored, credit(ALICE, 100n, KEY));
    assert.ok(again?.ok && again.replayed);
    assert.equal(apply(restored, credit(ALICE, 7n, KEY))[0]?.ok, false);
    assert.equal(balance(restored, ALICE), 100n);
  });
});
