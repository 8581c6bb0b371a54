import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { MAKERS_PER_MATCH_PART, matchIdOf, tradesByMatch } from '../../src/engine/state/match-parts.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import type { EngineTrade } from '../../src/engine/state/types.ts';
import { WorkloadCommands } from '../helpers/engine-workload.ts';

const START_MS = 1_764_000_000_000;
const MAKERS = 2 * MAKERS_PER_MATCH_PART + 50;

/**
 * A taker that sweeps 250 resting orders (user 0's bids of one unit) with one order (user 1's):
 * the state after it, and the sweep's trades. `version`: the records go through the journal's
 * text at that record version.
 */
function sweep(version?: number): { state: EngineState; trades: EngineTrade[]; takerId: string } {
  const state = new EngineState();
  const workload = new WorkloadCommands();
  let seq = 0n;
  const apply = (commands: EngineCommand[]) => {
    seq++;
    const text = encodeRecord({ seq, atMs: START_MS + Number(seq), commands });
    const record = decodeRecord(version === undefined ? text : text.replace(/"v":\d+/, `"v":${version}`));
    return applyRecord(state, record);
  };
  apply(workload.publish());
  const place = (user: number, outcome: 0 | 1, cents: number, units: number, type: 'GTC' | 'FAK') =>
    workload.toCommands({ kind: 'place', user, market: 0, outcome, side: 'BUY', cents, units, type, postOnly: false, expiresInSec: 0 }, [], START_MS / 1000).commands[0]!;
  apply(Array.from({ length: MAKERS }, () => place(0, 0, 40, 1, 'GTC')));
  const applied = apply([place(1, 1, 60, MAKERS, 'FAK')]);
  const trades = applied.effects.announcements.tradeUpdates;
  assert.equal(trades.length, MAKERS);
  return { state, trades, takerId: trades[0]!.taker.orderId };
}

describe('matches settled in parts (src/engine/state/match-parts.ts)', () => {
  it(`numbers the trades of a sweep in parts of ${MAKERS_PER_MATCH_PART} makers in match order, each part a match of its own`, () => {
    const { trades, takerId } = sweep();
    assert.deepEqual(trades.map((trade) => trade.matchPart ?? 0), trades.map((_, index) => Math.floor(index / MAKERS_PER_MATCH_PART)));
    const matches = tradesByMatch(trades);
    assert.deepEqual([...matches.keys()], [takerId, `${takerId}#1`, `${takerId}#2`]);
    assert.deepEqual([...matches.values()].map((match) => match.length), [100, 100, 50]);
    assert.deepEqual(matches.get(`${takerId}#1`), trades.slice(100, 200), 'in match order');
    assert.equal(matchIdOf(trades[0]!), takerId, 'part 0 keeps the taker order id alone');
  });

  it('keeps the parts of unsettled trades through a snapshot, and a replay numbers them as the live engine did', () => {
    const live = sweep();
    const restored = decodeSnapshot(encodeSnapshot(live.state).chunks);
    assert.deepEqual([...tradesByMatch(restored.unsettled.values()).entries()].map(([id, match]) => [id, match.length]), [[live.takerId, 100], [`${live.takerId}#1`, 100], [`${live.takerId}#2`, 50]]);
    assert.equal(encodeSnapshot(sweep().state).stateHash, encodeSnapshot(live.state).stateHash, 'two replays, one state');
  });

  it('replays a record of version 4 or before with its matches whole, as they were sent', () => {
    for (const version of [2, 4]) {
      const { trades, takerId } = sweep(version);
      assert.ok(trades.every((trade) => trade.matchPart === undefined));
      assert.deepEqual([...tradesByMatch(trades).keys()], [takerId]);
    }
    assert.ok(sweep(5).trades.some((trade) => trade.matchPart === 2));
  });
});
