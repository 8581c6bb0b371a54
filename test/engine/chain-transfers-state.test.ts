import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import { stateViolations } from '../../src/engine/state/invariants.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import type { Approval } from '../../src/engine/state/wallet-approvals.ts';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { OUTSIDE } from '../../src/settlement/accounts.ts';
import { MARKETS, USERS, WorkloadCommands } from '../helpers/engine-workload.ts';

const UNIT = 1_000_000n;
const START_MS = 1_700_000_000_000;

/** The chain-transfers command on the state machine alone (src/engine/chain-index/README.md). */
describe('chain-transfers on the engine state', () => {
  function world() {
    const state = new EngineState();
    const workload = new WorkloadCommands();
    let seq = 0n;
    const apply = (commands: EngineCommand[]) => {
      seq += 1n;
      const applied = applyRecord(state, { seq, atMs: START_MS + Number(seq), commands });
      assert.deepEqual(stateViolations(state), [], `after record ${seq}`);
      return applied;
    };
    apply(workload.publish());
    const placeCommands = (user: number, side: 'BUY' | 'SELL', cents: number, units: number, market = 0) =>
      workload.toCommands({ kind: 'place', user, market, outcome: 0, side, cents, units, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], START_MS / 1000).commands;
    // The workload's orders are unsigned (an API key's, EXTENSIONS.md section 11).
    const place = (user: number, side: 'BUY' | 'SELL', cents: number, units: number, market = 0) => apply(placeCommands(user, side, cents, units, market));
    /** The same order with a signature (the engine takes signatures as checked before it). */
    const placeSigned = (user: number, side: 'BUY' | 'SELL', cents: number, units: number, market = 0) =>
      apply(placeCommands(user, side, cents, units, market).map((c) => (c.kind === 'place' ? { ...c, order: { ...c.order, order: { ...c.order.order, signature: `0x${'ab'.repeat(65)}` as const } } } : c)));
    return { state, apply, place, placeSigned };
  }
  const [alice, bob] = [USERS[0]!, USERS[1]!];
  const out = (account: string, asset: string, amount: bigint, ref = 'tx:0') => ({ ref, account, asset, amount, direction: 'out' as const });

  it('a transfer out cancels the uncovered orders newest first, owes what trades lock, and debits it when their match fails', () => {
    const { state, apply, place } = world();
    // A bid of Alice's Bob sells into (its match then waits for the chain), and two more bids resting.
    place(0, 'BUY', 50, 100);
    place(1, 'SELL', 50, 40);
    const [match] = [...state.unsettled.values()];
    assert.ok(match, 'a MATCHED trade');
    place(0, 'BUY', 40, 100);
    place(0, 'BUY', 30, 100);
    const orders = [...state.open.values()].filter((o) => o.account === alice);
    assert.equal(orders.length, 3);

    // All Alice's collateral leaves on chain.
    const held = state.balances.get(alice, 'collateral').balance;
    const applied = apply([{ kind: 'chain-transfers', toBlock: 10, events: [out(alice, 'collateral', held)] }]);
    const cancels = applied.effects.announcements.orderUpdates.filter((u) => u.type === 'CANCELLATION');
    assert.deepEqual(cancels.map((u) => [u.order.priceMicros, u.reason]), [[300_000, 'UNFUNDED'], [400_000, 'UNFUNDED'], [500_000, 'UNFUNDED']], 'newest first, all of them');
    const row = state.balances.get(alice, 'collateral');
    assert.equal(row.balance, row.locked, 'only what the MATCHED trade locks is left');
    // 40 bought at 0.5: 20 and the maker's fee.
    assert.ok(row.locked >= 20n * UNIT && row.locked < 21n * UNIT, `locked ${row.locked}`);
    assert.equal(state.chainIndex.shortfalls.get(`${alice}|collateral`)?.amount, row.locked);
    assert.equal(state.chainIndex.cursor, 10);

    apply([{ kind: 'chain-fills', events: [{ type: 'failed', matchId: match.taker.orderId, reason: 'ERC20InsufficientBalance', faultOrderIds: [] }] }]);
    assert.deepEqual(state.balances.get(alice, 'collateral'), { balance: 0n, locked: 0n });
    assert.equal(state.chainIndex.shortfalls.size, 0);
    assert.equal(state.balances.get(OUTSIDE, 'collateral').balance, held);
  });

  it('a range at or below the cursor changes nothing; value sent out comes back from outside, and a token from nowhere is half of a set split outside', () => {
    const { state, apply } = world();
    const token = MARKETS[0]!.tokenId1;
    apply([{ kind: 'chain-transfers', toBlock: 5, events: [out(alice, token, 30n * UNIT)] }]);
    const again = apply([{ kind: 'chain-transfers', toBlock: 5, events: [out(alice, token, 30n * UNIT)] }]);
    assert.equal(again.changedState, false);
    assert.equal(state.balances.get(alice, token).balance, 70n * UNIT);
    // Bob receives 50: the 30 outside holds, and 20 minted outside (its collateral credited, the other token outside's).
    const credited = state.ledger.credited;
    apply([{ kind: 'chain-transfers', toBlock: 6, events: [{ ref: 'tx:1', account: bob, asset: token, amount: 50n * UNIT, direction: 'in' }] }]);
    assert.equal(state.balances.get(bob, token).balance, 150n * UNIT);
    assert.equal(state.balances.get(OUTSIDE, token).balance, 0n);
    assert.equal(state.balances.get(OUTSIDE, MARKETS[0]!.tokenId2).balance, 20n * UNIT);
    assert.equal(state.ledger.credited, credited + 20n * UNIT);
  });

  const approval = (account: string, which: Approval, approved: boolean, ref = 'tx:9') => ({ ref, account, approval: which, approved });

  it('a revoked approval cancels the open orders that need it on that exchange, refuses new ones until it is given again, and stays through a snapshot', () => {
    const { state, apply, place } = world();
    // Market 0 settles on the exchange, market 1 on the neg-risk exchange.
    place(0, 'BUY', 30, 10);
    place(0, 'BUY', 20, 10);
    place(0, 'SELL', 90, 10);
    place(0, 'BUY', 30, 10, 1);
    const open = () => [...state.open.values()].filter((o) => o.account === alice).map((o) => `${o.side}@${o.priceMicros}/${o.marketId.slice(-1)}`);
    const applied = apply([{ kind: 'chain-transfers', toBlock: 3, events: [approval(alice, 'exchange:collateral', false)] }]);
    const cancels = applied.effects.announcements.orderUpdates.filter((u) => u.type === 'CANCELLATION');
    assert.deepEqual(cancels.map((u) => [u.order.priceMicros, u.reason]), [[200_000, 'UNFUNDED'], [300_000, 'UNFUNDED']], 'the bids on the exchange, newest first');
    assert.deepEqual(open(), ['SELL@900000/1', 'BUY@300000/2']);
    assert.equal(state.balances.get(alice, 'collateral').locked, 3_030_000n, 'only the neg-risk bid reserves: 3 and its 1% fee');

    const refused = place(0, 'BUY', 30, 1).outcomes[0] as { ok: boolean; code?: string; message?: string };
    assert.equal(refused.ok, false);
    assert.equal(refused.code, 'INSUFFICIENT_BALANCE');
    assert.match(refused.message!, /revoked the exchange's collateral approval/);
    assert.equal((place(0, 'SELL', 95, 1).outcomes[0] as { ok: boolean }).ok, true, 'a SELL needs the outcome-token approval, still given');
    assert.equal((place(0, 'BUY', 30, 1, 1).outcomes[0] as { ok: boolean }).ok, true, 'the neg-risk exchange keeps its approval');

    // A snapshot keeps what is missing; one of format v4 (no approvals) reads as all approved.
    const chunks = encodeSnapshot(state).chunks;
    assert.equal(decodeSnapshot(chunks).chainIndex.missingApprovals.has(alice, 'exchange:collateral'), true);
    const v4 = chunks.map((chunk) => chunk.replace('pmx-engine-snapshot v5', 'pmx-engine-snapshot v4').replace(/^(I\[\d+,\[.*?\]),\[.*\]\]$/m, '$1]'));
    assert.notEqual(v4.join(''), chunks.join(''));
    assert.equal(decodeSnapshot(v4).chainIndex.missingApprovals.size, 0);

    // Revoked and given again in one range, in chain order: nothing is missing after it, and a SELL revoke takes the asks.
    apply([{ kind: 'chain-transfers', toBlock: 4, events: [approval(alice, 'exchange:collateral', true), approval(alice, 'exchange:outcome-tokens', false, 'tx:10')] }]);
    assert.deepEqual(open(), ['BUY@300000/2', 'BUY@300000/2']);
    assert.equal((place(0, 'BUY', 30, 1).outcomes[0] as { ok: boolean }).ok, true);
    assert.equal((place(0, 'SELL', 95, 1).outcomes[0] as { ok: boolean }).ok, false);
  });

  it('operator trading turned off cancels the wallet\'s open unsigned orders and refuses new ones (ORDER_SIGNATURE_REQUIRED), keeping and taking signed ones, through a snapshot', () => {
    const { state, apply, place, placeSigned } = world();
    place(0, 'BUY', 30, 10);
    placeSigned(0, 'BUY', 20, 10);
    place(0, 'SELL', 90, 10);
    place(1, 'BUY', 25, 10);
    const unsignedOf = (account: string) => [...state.open.values()].filter((o) => o.account === account).map((o) => `${o.side}@${o.priceMicros}${o.unsigned ? ' unsigned' : ''}`);
    assert.deepEqual(unsignedOf(alice), ['BUY@300000 unsigned', 'BUY@200000', 'SELL@900000 unsigned']);

    // A snapshot keeps which orders are unsigned: the restored state cancels the same ones.
    const restored = decodeSnapshot(encodeSnapshot(state).chunks);
    assert.deepEqual([...restored.open.values()].map((o) => o.unsigned ?? false), [...state.open.values()].map((o) => o.unsigned ?? false));

    const off = [{ kind: 'chain-transfers' as const, toBlock: 3, events: [approval(alice, 'wallet:operator-trading', false)] }];
    const cancels = apply(off).effects.announcements.orderUpdates.filter((u) => u.type === 'CANCELLATION');
    assert.deepEqual(cancels.map((u) => [u.order.side, u.order.priceMicros, u.reason]), [['SELL', 900_000, 'UNFUNDED'], ['BUY', 300_000, 'UNFUNDED']], 'her unsigned orders, newest first');
    assert.deepEqual(unsignedOf(alice), ['BUY@200000']);
    assert.equal(unsignedOf(bob).length, 1, 'another wallet keeps its unsigned order');
    assert.equal(applyRecord(restored, { seq: state.seq, atMs: START_MS + Number(state.seq), commands: off }).effects.announcements.orderUpdates.filter((u) => u.type === 'CANCELLATION').length, 2);

    const refused = place(0, 'BUY', 30, 1).outcomes[0] as { ok: boolean; code?: string; message?: string };
    assert.equal(refused.ok, false);
    assert.equal(refused.code, 'ORDER_SIGNATURE_REQUIRED');
    assert.match(refused.message!, /turned operator trading off/);
    assert.equal((placeSigned(0, 'BUY', 30, 1).outcomes[0] as { ok: boolean }).ok, true, 'a signed order settles without the operator');

    apply([{ kind: 'chain-transfers', toBlock: 4, events: [approval(alice, 'wallet:operator-trading', true)] }]);
    assert.equal((place(0, 'BUY', 30, 1).outcomes[0] as { ok: boolean }).ok, true, 'turned on again, unsigned orders are taken');
  });

  it('journal records hold approvals beside transfers, in order, and records written before approvals still read', () => {
    const events = [approval(alice, 'neg-risk-exchange:outcome-tokens', false), out(bob, 'collateral', 5n * UNIT)];
    const record = { seq: 7n, atMs: START_MS, commands: [{ kind: 'chain-transfers' as const, toBlock: 12, events }] };
    assert.deepEqual(decodeRecord(encodeRecord(record)), record);
    const old = '{"seq":"7","at":1700000000000,"c":[["chain-transfers",12,[["tx:0","0x00000000000000000000000000000000000000a2","collateral","5000000","out"]]]]}';
    assert.deepEqual(decodeRecord(old).commands, [{ kind: 'chain-transfers', toBlock: 12, events: [out(bob, 'collateral', 5n * UNIT)] }]);
  });
});
