import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { CommandOutcome, EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { stateViolations } from '../../src/engine/state/invariants.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import { WITHDRAWN } from '../../src/settlement/accounts.ts';
import { COLLATERAL } from '../../src/settlement/types.ts';

const ALICE = '0x00000000000000000000000000000000000000a1';
const TO = '0x000000000000000000000000000000000000dead';
let seq = 0n;

/** One command as one record, through the journal's text as the engine writes and replays it. */
function apply(state: EngineState, command: EngineCommand): CommandOutcome {
  seq += 1n;
  const [outcome] = applyRecord(state, decodeRecord(encodeRecord({ seq, atMs: 1_764_000_000_000, commands: [command] }))).outcomes;
  return outcome!;
}

const withdraw = (amount: bigint, nonce: bigint): EngineCommand => ({ kind: 'withdraw', account: ALICE, to: TO, amount, nonce });
const collateral = (state: EngineState, account: string) => state.balances.get(account, COLLATERAL);

/** The withdraw command (src/engine/state/balance-commands.ts): available collateral out, each nonce once. */
describe('engine state: withdrawals', () => {
  it('moves available collateral to the withdrawn account, refusing a spent nonce and an amount above available', () => {
    const state = new EngineState();
    apply(state, { kind: 'credit', account: ALICE, amount: 100n, reason: 'DEPOSIT', ref: 'start' });

    const first = apply(state, withdraw(30n, 7n));
    assert.equal(first.ok, true);
    assert.deepEqual([collateral(state, ALICE), collateral(state, WITHDRAWN)], [{ balance: 70n, locked: 0n }, { balance: 30n, locked: 0n }]);

    assert.deepEqual(apply(state, withdraw(1n, 7n)), { ok: false, code: 'VALIDATION_FAILED', message: 'nonce 7 was already used by this wallet' });
    state.balances.reserve(ALICE, COLLATERAL, 50n);
    const above = apply(state, withdraw(21n, 8n));
    assert.equal(above.ok === false && above.code, 'INSUFFICIENT_BALANCE', 'only 20 is available beside what orders reserve');
    assert.deepEqual(collateral(state, ALICE), { balance: 70n, locked: 50n }, 'nothing moved');

    assert.equal(apply(state, withdraw(20n, 8n)).ok, true, 'a refused nonce is not spent');
    state.balances.release(ALICE, COLLATERAL, 50n);
    assert.deepEqual(stateViolations(state), [], 'the collateral held, the withdrawn account included, equals all credited');
  });

  it("sent to another user's wallet, moves the collateral to that account; never to the wallet itself", () => {
    const state = new EngineState();
    apply(state, { kind: 'credit', account: ALICE, amount: 100n, reason: 'DEPOSIT', ref: 'start' });
    const toBob = apply(state, { kind: 'withdraw', account: ALICE, to: 'bob', amount: 40n, nonce: 1n, toAccount: 'bob' });
    assert.equal(toBob.ok, true);
    assert.deepEqual([collateral(state, ALICE).balance, collateral(state, 'bob').balance, collateral(state, WITHDRAWN).balance], [60n, 40n, 0n]);
    assert.deepEqual(apply(state, { kind: 'withdraw', account: ALICE, to: ALICE, amount: 1n, nonce: 2n, toAccount: ALICE }), { ok: false, code: 'VALIDATION_FAILED', message: 'a wallet cannot withdraw to itself' });
    assert.deepEqual(stateViolations(state), []);
  });

  it('refuses a negative amount in a withdrawal, a transfer and a credit, moving nothing', () => {
    const state = new EngineState();
    apply(state, { kind: 'credit', account: ALICE, amount: 100n, reason: 'DEPOSIT', ref: 'start' });
    apply(state, withdraw(30n, 1n));
    const refused = { ok: false, code: 'VALIDATION_FAILED', message: 'an amount cannot be negative (-30)' };
    assert.deepEqual(apply(state, withdraw(-30n, 2n)), refused, 'not 30 paid back in from the withdrawn account');
    assert.deepEqual(apply(state, { kind: 'transfer', from: WITHDRAWN, to: ALICE, asset: COLLATERAL, amount: -30n, why: 'REWARD', ref: 'back', once: true }), refused);
    assert.deepEqual(apply(state, { kind: 'credit', account: ALICE, amount: -30n, reason: 'DEPOSIT', ref: 'minus' }), refused);
    assert.deepEqual([collateral(state, ALICE), collateral(state, WITHDRAWN)], [{ balance: 70n, locked: 0n }, { balance: 30n, locked: 0n }]);
    assert.deepEqual(stateViolations(state), []);
  });

  it('keeps spent nonces across a snapshot, per account', () => {
    const state = new EngineState();
    apply(state, { kind: 'credit', account: ALICE, amount: 100n, reason: 'DEPOSIT', ref: 'start' });
    apply(state, { kind: 'credit', account: 'bob', amount: 100n, reason: 'DEPOSIT', ref: 'start' });
    apply(state, withdraw(10n, 1n));
    const restored = decodeSnapshot(encodeSnapshot(state).chunks);
    assert.equal(apply(restored, withdraw(10n, 1n)).ok, false);
    assert.equal(apply(restored, { kind: 'withdraw', account: 'bob', to: TO, amount: 10n, nonce: 1n }).ok, true, "another wallet's nonce 1 is its own");
  });
});
