import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import type { MmpScope } from '../../src/engine/state/maker-safety.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import { apiKeyOf, MARKETS, USERS, WorkloadCommands } from '../helpers/engine-workload.ts';

const START_MS = 1_764_000_000_000;
const UNIT = 1_000_000n;
const market = MARKETS[0]!;

/** The engine's state machine alone: each call one record at `atMs`. */
function engine() {
  const state = new EngineState();
  const workload = new WorkloadCommands();
  let seq = 0n;
  const apply = (atMs: number, commands: EngineCommand[]) => {
    seq += 1n;
    const applied = applyRecord(state, { seq, atMs, commands });
    state.seq = seq;
    return applied;
  };
  apply(START_MS, workload.publish());
  const place = (user: number, side: 'BUY' | 'SELL', cents: number, units: number, type: 'GTC' | 'FAK' = 'GTC'): EngineCommand =>
    workload.toCommands({ kind: 'place', user, market: 0, outcome: 0, side, cents, units, type, postOnly: false, expiresInSec: 0 }, [], START_MS / 1000).commands[0]!;
  return { state, apply, place };
}

const mmp = (user: number, limits: { maxFills?: number; maxQuantityBaseUnits?: bigint }, scope: MmpScope = { kind: 'market', id: market.id }): EngineCommand => ({
  kind: 'mmp-set',
  setting: {
    apiKey: apiKeyOf(user), userId: `user-${user}`, scope, windowMs: 10_000, frozenMs: 5_000,
    maxFills: limits.maxFills ?? null, maxQuantityBaseUnits: limits.maxQuantityBaseUnits ?? null, maxNotionalBaseUnits: null,
  },
});

const openOf = (state: EngineState, user: number) => [...state.open.values()].filter((o) => o.account === USERS[user]);

describe('market makers safety in the engine state (EXTENSIONS.md section 15)', () => {
  it('MMP maxFills 3: four takers in one record fill exactly 3, the rest of the maker is cancelled in that record, and the key is frozen until frozenMs passed', () => {
    const { state, apply, place } = engine();
    apply(START_MS + 1, [mmp(0, { maxFills: 3 }), ...[1, 2, 3, 4, 5].map(() => place(0, 'SELL', 50, 1))]);
    assert.equal(openOf(state, 0).length, 5);
    const burst = apply(START_MS + 2, [1, 2, 3, 1].map((taker) => place(taker, 'BUY', 50, 1, 'FAK')));
    assert.equal(burst.effects.announcements.tradeUpdates.length, 3);
    assert.equal(openOf(state, 0).length, 0);
    const reasons = burst.effects.announcements.orderUpdates.filter((u) => u.type === 'CANCELLATION').map((u) => u.reason);
    assert.deepEqual(reasons, ['MMP_TRIGGERED', 'MMP_TRIGGERED']);
    assert.deepEqual(burst.effects.announcements.mmpTrips.map((t) => t.frozenUntilMs), [START_MS + 2 + 5_000]);

    const frozen = apply(START_MS + 3, [place(0, 'SELL', 50, 1)]);
    assert.deepEqual(frozen.outcomes.map((o) => o.ok || o.code), ['MMP_FROZEN']);
    const thawed = apply(START_MS + 2 + 5_000, [place(0, 'SELL', 50, 1)]);
    assert.deepEqual(thawed.outcomes.map((o) => o.ok), [true]);
  });

  it('one taker sweeping a maker over its limit stops at the trip: later makers of the sweep are withdrawn', () => {
    const { state, apply, place } = engine();
    apply(START_MS + 1, [mmp(0, { maxQuantityBaseUnits: 2n * UNIT }), place(0, 'SELL', 50, 1), place(0, 'SELL', 51, 1), place(0, 'SELL', 52, 1), place(1, 'SELL', 53, 1)]);
    const sweep = apply(START_MS + 2, [place(2, 'BUY', 60, 4, 'FAK')]);
    const trades = sweep.effects.announcements.tradeUpdates;
    assert.deepEqual(trades.map((t) => [t.maker.account, t.maker.priceMicros]), [[USERS[0], 500_000], [USERS[0], 510_000], [USERS[1], 530_000]]);
    assert.equal(openOf(state, 0).length, 0);
  });

  it('a heartbeat not refreshed cancels the key orders at its deadline with HEARTBEAT_EXPIRED; a refresh moves the deadline', () => {
    const { state, apply, place } = engine();
    apply(START_MS + 1, [{ kind: 'heartbeat', apiKey: apiKeyOf(0), timeoutMs: 5_000 }, place(0, 'SELL', 50, 1), place(1, 'SELL', 55, 1)]);
    apply(START_MS + 4_000, [{ kind: 'heartbeat', apiKey: apiKeyOf(0), timeoutMs: 5_000 }]);
    assert.equal(apply(START_MS + 8_000, [{ kind: 'tick' }]).changedState, false);
    const expired = apply(START_MS + 9_000, [{ kind: 'tick' }]);
    assert.deepEqual(expired.effects.announcements.orderUpdates.map((u) => [u.order.account, u.reason]), [[USERS[0], 'HEARTBEAT_EXPIRED']]);
    assert.equal(openOf(state, 1).length, 1);
    assert.equal(state.safety.heartbeats.size, 0);
  });

  it('a dropped cancel-on-disconnect socket cancels after 2 s unless a reconnect names it or another socket of the key lives', () => {
    const { state, apply, place } = engine();
    const session = (change: 'open' | 'close', sessionId: string, resumes: string | null = null): EngineCommand => ({ kind: 'session', apiKey: apiKeyOf(0), change, sessionId, resumes, node: null });
    apply(START_MS + 1, [session('open', 'a'), place(0, 'SELL', 50, 1)]);
    apply(START_MS + 100, [session('close', 'a')]);
    apply(START_MS + 1_500, [session('open', 'b', 'a')]);
    assert.equal(apply(START_MS + 5_000, [{ kind: 'tick' }]).changedState, false);
    assert.equal(openOf(state, 0).length, 1);

    apply(START_MS + 6_000, [session('close', 'b')]);
    apply(START_MS + 7_000, [{ kind: 'tick' }]);
    assert.equal(openOf(state, 0).length, 1, 'still in its grace');
    const dropped = apply(START_MS + 8_000, [{ kind: 'tick' }]);
    assert.deepEqual(dropped.effects.announcements.orderUpdates.map((u) => u.reason), ['DISCONNECTED']);
    assert.equal(state.safety.sessions.size, 0);
  });

  it("after a takeover, a socket of a node still present stays live for 10 s for its node to name it again; one of a node gone, or of no node said, gets the 2 s grace", () => {
    const { state, apply, place } = engine();
    const open = (user: number, sessionId: string, node: string | null, resumes: string | null = null): EngineCommand => ({ kind: 'session', apiKey: apiKeyOf(user), change: 'open', sessionId, resumes, node });
    apply(START_MS + 1, [open(0, 'on-a', 'node-a'), open(1, 'on-b', 'node-b'), open(2, 'unsaid', null), open(3, 'late', 'node-a'), ...[0, 1, 2, 3].map((user) => place(user, 'SELL', 50, 1))]);
    apply(START_MS + 1_000, [{ kind: 'sessions-adopted', present: ['node-a'] }]);
    // node-b is gone and user 2's socket said no node: their 2 s grace ends at 3,000.
    const graceEnded = apply(START_MS + 3_000, [{ kind: 'tick' }]);
    assert.deepEqual(graceEnded.effects.announcements.orderUpdates.map((u) => [u.order.account, u.reason]).sort(), [[USERS[1], 'DISCONNECTED'], [USERS[2], 'DISCONNECTED']]);
    // node-a names one of its sockets again 5 s in (past the 2 s grace); the other it never names: it closed while no engine ran.
    apply(START_MS + 6_000, [open(0, 'on-a', 'node-a', 'on-a')]);
    assert.equal(apply(START_MS + 10_999, [{ kind: 'tick' }]).changedState, false);
    const unheard = apply(START_MS + 11_000, [{ kind: 'tick' }]);
    assert.deepEqual(unheard.effects.announcements.orderUpdates.map((u) => [u.order.account, u.reason]), [[USERS[3], 'DISCONNECTED']]);
    assert.equal(openOf(state, 0).length, 1, 'the socket named again keeps its orders');
    assert.deepEqual([...state.safety.sessions.keys()], [apiKeyOf(0)]);
    assert.equal(state.safety.nextDueMs(), undefined, 'nothing left to wait for');
  });

  it('a key holds at most 100 MMP settings: a new scope beyond is refused, a known one is replaced', () => {
    const { state, apply } = engine();
    const setting = (id: string) => mmp(0, { maxFills: 1 }, { kind: 'event', id });
    apply(START_MS + 1, Array.from({ length: 100 }, (_, i) => setting(`event-${i}`)));
    const [beyond, known] = apply(START_MS + 2, [setting('event-100'), setting('event-7')]).outcomes;
    assert.deepEqual([beyond!.ok || beyond!.code, known!.ok], ['VALIDATION_FAILED', true]);
    assert.equal(state.safety.mmp.get(apiKeyOf(0))!.length, 100);
  });

  it('heartbeats, sessions, MMP settings and freezes are in the snapshot and its state hash', () => {
    const { state, apply, place } = engine();
    apply(START_MS + 1, [mmp(0, { maxFills: 1 }), { kind: 'heartbeat', apiKey: apiKeyOf(1), timeoutMs: 9_000 }, { kind: 'session', apiKey: apiKeyOf(2), change: 'open', sessionId: 's', resumes: null, node: 'node-a' }, place(0, 'SELL', 50, 2)]);
    apply(START_MS + 2, [place(1, 'BUY', 50, 1, 'FAK'), { kind: 'sessions-adopted', present: ['node-a'] }]);
    const encoded = encodeSnapshot(state);
    const restored = decodeSnapshot(encoded.chunks);
    assert.equal(encodeSnapshot(restored).stateHash, encoded.stateHash);
    assert.equal(restored.safety.frozenUntil(apiKeyOf(0), market, START_MS + 3), START_MS + 2 + 5_000);
    assert.equal(restored.safety.heartbeats.get(apiKeyOf(1)), START_MS + 1 + 9_000);
    const sessions = restored.safety.sessions.get(apiKeyOf(2))!;
    assert.deepEqual([[...sessions.live], [...sessions.nodes], [...sessions.unconfirmed]], [['s'], [['s', 'node-a']], [['s', START_MS + 2 + 10_000]]]);
    const without = decodeSnapshot(encoded.chunks.map((chunk) => chunk.replace(/\nD.*/, '')));
    assert.notEqual(encodeSnapshot(without).stateHash, encoded.stateHash);
  });
});
