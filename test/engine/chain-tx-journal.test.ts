import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import { journaledChainTxChange } from '../../src/engine/state/chain-settlement-commands.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import type { RecordChange, TxRecord } from '../../src/settlement/chain/sender/index.ts';

const AT_MS = 1_764_000_000_000;
const SENDER = 'exchange';
const version = (n: number) => ({ hash: `0x${String(n).repeat(64)}` as const, maxFeePerGas: String(n * 1000), maxPriorityFeePerGas: '1' });
const sent: TxRecord = {
  nonce: 7, fillIds: ['match-1', 'match-2'], to: `0x${'ee'.repeat(20)}`, data: `0x${'ab'.repeat(20_000)}`, gas: '900000', versions: [version(1)], mined: null,
};
const resent: TxRecord = { ...sent, versions: [version(1), version(2)] };
const mined: TxRecord = { ...resent, mined: { hash: version(2).hash, blockNumber: 12, blockHash: `0x${'c'.repeat(64)}` } };

/** Applies each change through the journal's text, as the engine journals and replays it; the record texts' total length. */
function journal(state: EngineState, changes: RecordChange[], compact: boolean): number {
  let bytes = 0;
  for (const [i, change] of changes.entries()) {
    const command: EngineCommand = { kind: 'chain-tx', change: compact ? journaledChainTxChange(state, SENDER, change) : { sender: SENDER, ...change } };
    const text = encodeRecord({ seq: BigInt(i + 1), atMs: AT_MS, commands: [command] });
    bytes += text.length;
    applyRecord(state, decodeRecord(text));
  }
  return bytes;
}

/** A settlement transaction's records in the journal (src/engine/state/chain-settlement-commands.ts `journaledChainTxChange`). */
describe('engine state: settlement records journaled once with their call', () => {
  it('leaves the call out of a record the state already holds with it, and the state is the same as with every copy', () => {
    const full = new EngineState();
    const compact = new EngineState();
    const changes: RecordChange[] = [{ kind: 'put', record: sent }, { kind: 'put', record: resent }, { kind: 'put', record: mined }];
    const fullBytes = journal(full, changes, false);
    const compactBytes = journal(compact, changes, true);
    assert.deepEqual(compact.chainTxs.get(`${SENDER}/nonce:7`)?.record, mined);
    // Every line of the state but the header, which holds the journal's own hash (its records differ).
    const body = (state: EngineState) => encodeSnapshot(state).chunks.join('').split('\n').filter((line) => !line.startsWith('H'));
    assert.deepEqual(body(compact), body(full));
    assert.ok(compactBytes < fullBytes / 2.5, `${compactBytes} bytes journaled, against ${fullBytes} with the call in every record`);

    journal(compact, [{ kind: 'drop', record: mined }], true);
    assert.equal(compact.chainTxs.size, 0);
  });

  it('journals the whole record when the state holds none for its key, or holds another call', () => {
    const state = new EngineState();
    assert.equal('callHeld' in journaledChainTxChange(state, SENDER, { kind: 'put', record: sent }), false);
    journal(state, [{ kind: 'put', record: sent }], false);
    const otherCall = journaledChainTxChange(state, SENDER, { kind: 'put', record: { ...sent, data: '0x01' } });
    assert.equal('callHeld' in otherCall, false);
    const otherFills = journaledChainTxChange(state, SENDER, { kind: 'put', record: { ...sent, fillIds: ['match-1'] } });
    assert.equal('callHeld' in otherFills, false);
    const sameCall = journaledChainTxChange(state, SENDER, { kind: 'put', record: resent });
    assert.deepEqual(sameCall, { sender: SENDER, kind: 'put', record: { nonce: 7, to: sent.to, gas: sent.gas, versions: resent.versions, mined: null }, callHeld: true });
  });

  it('refuses, rather than invents, a call-less change for a record the state does not hold', () => {
    const state = new EngineState();
    const { data: _data, fillIds: _fillIds, ...rest } = resent;
    const command: EngineCommand = { kind: 'chain-tx', change: { sender: SENDER, kind: 'put', record: rest, callHeld: true } };
    assert.throws(() => applyRecord(state, decodeRecord(encodeRecord({ seq: 1n, atMs: AT_MS, commands: [command] }))), /does not hold/);
  });
});
