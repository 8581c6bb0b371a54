import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { MARKETS, USERS, WorkloadCommands } from '../helpers/engine-workload.ts';

const AT_MS = 1_764_000_000_000;
const ALICE = USERS[0]!;
const MARKET = MARKETS[0]!;
const SPLIT_TX = `0x${'5'.repeat(64)}`;
const MERGE_TX = `0x${'6'.repeat(64)}`;

/** A state with the workload's markets and funded users, and a way to apply one command through the journal's text. */
function engine() {
  const state = new EngineState();
  let seq = 0n;
  const apply = (commands: EngineCommand[]) => {
    seq += 1n;
    const applied = applyRecord(state, decodeRecord(encodeRecord({ seq, atMs: AT_MS, commands })));
    state.seq = seq;
    return applied;
  };
  apply(new WorkloadCommands().publish());
  return apply;
}

/**
 * Split, merge and redeem name the chain's transaction when a wallet made the move on chain first
 * (src/conditional-tokens/): the ledger transaction carries it to the tables (the activity's row
 * hash), through the journal's text, while its own hash stays the ledger's.
 */
describe('engine state: the chain transaction of a split, merge or redeem', () => {
  it('carries chainTxHash from the command to the ledger transaction, and null without one', () => {
    const apply = engine();
    const split = apply([{ kind: 'split', account: ALICE, marketId: MARKET.id, amount: 5n, chainTxHash: SPLIT_TX }]);
    assert.equal(split.outcomes[0]!.ok, true);
    assert.deepEqual(split.changes.ledgerTxs.map((t) => [t.kind, t.chainTxHash]), [['SPLIT', SPLIT_TX]]);
    assert.notEqual(split.changes.ledgerTxs[0]!.txHash, SPLIT_TX, "the ledger's hash is its own");

    const merge = apply([{ kind: 'merge', account: ALICE, marketIds: [MARKET.id], amounts: [5n], chainTxHash: MERGE_TX }]);
    assert.deepEqual(merge.changes.ledgerTxs.map((t) => [t.kind, t.chainTxHash]), [['MERGE', MERGE_TX]]);

    const ledgerOnly = apply([{ kind: 'split', account: ALICE, marketId: MARKET.id, amount: 1n }]);
    assert.deepEqual(ledgerOnly.changes.ledgerTxs.map((t) => t.chainTxHash), [null]);
  });

  it('writes the hash as a last field only when there is one, so records written before read as they were', () => {
    const commands: EngineCommand[] = [
      { kind: 'split', account: ALICE, marketId: MARKET.id, amount: 5n },
      { kind: 'merge', account: ALICE, marketIds: [MARKET.id], amounts: [5n] },
      { kind: 'redeem', userId: 'u', account: ALICE, marketIds: [MARKET.id] },
    ];
    const text = encodeRecord({ seq: 1n, atMs: AT_MS, commands });
    assert.ok(!text.includes('0x5555'));
    assert.deepEqual(decodeRecord(text).commands, commands);
    const withHashes = commands.map((c) => ({ ...c, chainTxHash: SPLIT_TX }));
    assert.deepEqual(decodeRecord(encodeRecord({ seq: 1n, atMs: AT_MS, commands: withHashes })).commands, withHashes);
  });
});
