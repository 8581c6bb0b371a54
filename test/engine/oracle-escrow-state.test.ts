import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { CommandOutcome, EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { stateViolations } from '../../src/engine/state/invariants.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import type { CatalogueTerms } from '../../src/engine/state/oracle-commands.ts';
import { REWARD_TREASURY } from '../../src/settlement/accounts.ts';
import { COLLATERAL } from '../../src/settlement/types.ts';
import { MARKETS, UNIT } from '../helpers/engine-workload.ts';

const CAROL = '0x00000000000000000000000000000000000000c1';
const TERMS: CatalogueTerms = { endMs: 0, proposalBondBaseUnits: 5n * UNIT, rewardBaseUnits: 2n * UNIT, livenessMs: 1_000 };
const START_MS = 1_764_000_000_000;
let seq = 0n;

/** One command as one record at `atMs`, through the journal's text as the engine writes and replays it. */
function apply(state: EngineState, command: EngineCommand, atMs = START_MS): CommandOutcome {
  seq += 1n;
  const [outcome] = applyRecord(state, decodeRecord(encodeRecord({ seq, atMs, commands: [command] }))).outcomes;
  return outcome!;
}

const treasury = (state: EngineState) => state.balances.get(REWARD_TREASURY, COLLATERAL);
const market = { ...MARKETS[0]!, oracleReward: (2n * UNIT).toString() };
const fund = (account: string, amount: bigint): EngineCommand => ({ kind: 'credit', account, amount, reason: account === REWARD_TREASURY ? 'TREASURY_DEPOSIT' : 'DEPOSIT', ref: 'start' });
const oracle = (command: Extract<EngineCommand, { kind: 'oracle' }>['command']): EngineCommand => ({ kind: 'oracle', marketId: market.id, command, terms: TERMS });

/** The oracle reward escrowed at publication (src/engine/state/oracle-escrow.ts). */
describe('engine state: oracle reward escrow', () => {
  it('reserves the reward in the treasury at publication and pays the proposer out of it at settlement', () => {
    const state = new EngineState();
    apply(state, fund(REWARD_TREASURY, 3n * UNIT));
    apply(state, fund(CAROL, 10n * UNIT));
    apply(state, { kind: 'market', info: market });
    assert.deepEqual(treasury(state), { balance: 3n * UNIT, locked: 2n * UNIT });
    assert.deepEqual(stateViolations(state), []);
    // A maker-reward payout can spend only what is not escrowed.
    const payout = (amount: bigint): EngineCommand => ({ kind: 'transfer', from: REWARD_TREASURY, to: CAROL, asset: COLLATERAL, amount, why: 'REWARD', ref: `reward-claim:${amount}`, once: true });
    assert.equal(apply(state, payout(2n * UNIT)).ok, false);
    assert.equal(apply(state, payout(UNIT)).ok, true);

    // A publication seen again (a change of the market) escrows nothing more.
    apply(state, { kind: 'market', info: { ...market, isPaused: true } });
    apply(state, { kind: 'market', info: market });
    assert.deepEqual(treasury(state), { balance: 2n * UNIT, locked: 2n * UNIT });

    // The snapshot keeps the escrow: the restored state pays the same.
    const restored = decodeSnapshot(encodeSnapshot(state).chunks);
    assert.equal(encodeSnapshot(restored).stateHash, encodeSnapshot(state).stateHash);
    assert.equal(apply(restored, oracle({ kind: 'propose', by: { kind: 'user', account: CAROL, userId: 'carol' }, outcome: 'YES' })).ok, true);
    assert.equal(apply(restored, oracle({ kind: 'tick' }), START_MS + 1_000).ok, true);
    assert.equal(restored.questions.get(market.id)?.status, 'RESOLVED');
    assert.deepEqual(treasury(restored), { balance: 0n, locked: 0n });
    assert.deepEqual(restored.balances.get(CAROL, COLLATERAL), { balance: 13n * UNIT, locked: 0n }, 'bond back, the payout of 1 and the reward of 2');
    assert.equal(restored.oracleEscrows.size, 0);
    assert.deepEqual(stateViolations(restored), []);
  });

  it('gives the escrow back when the market resolves without paying it (an operator proposal)', () => {
    const state = new EngineState();
    apply(state, fund(REWARD_TREASURY, 5n * UNIT));
    apply(state, { kind: 'market', info: market });
    apply(state, oracle({ kind: 'propose', by: { kind: 'operator' }, outcome: 'NO' }));
    assert.equal(apply(state, oracle({ kind: 'tick' }), START_MS + 1_000).ok, true);
    assert.equal(state.questions.get(market.id)?.status, 'RESOLVED');
    assert.deepEqual(treasury(state), { balance: 5n * UNIT, locked: 0n });
    assert.deepEqual(stateViolations(state), []);
  });

  it('escrows nothing when the treasury cannot cover the reward, and pays it at settlement if the treasury covers it by then', () => {
    const state = new EngineState();
    apply(state, fund(REWARD_TREASURY, UNIT));
    apply(state, fund(CAROL, 10n * UNIT));
    apply(state, { kind: 'market', info: market });
    assert.deepEqual(treasury(state), { balance: UNIT, locked: 0n });
    assert.equal(state.oracleEscrows.size, 0);
    apply(state, fund(REWARD_TREASURY, UNIT));
    apply(state, oracle({ kind: 'propose', by: { kind: 'user', account: CAROL, userId: 'carol' }, outcome: 'YES' }));
    apply(state, oracle({ kind: 'tick' }), START_MS + 1_000);
    assert.deepEqual(state.balances.get(CAROL, COLLATERAL), { balance: 12n * UNIT, locked: 0n });
    assert.deepEqual(treasury(state), { balance: 0n, locked: 0n });
    assert.deepEqual(stateViolations(state), []);
  });
});
