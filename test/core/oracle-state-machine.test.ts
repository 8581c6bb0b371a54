import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyOracle, lockedBonds, resolveQuestion, UNPROPOSED, type OracleCommand, type OracleEffect, type OracleOutcome, type OracleState, type QuestionTerms } from '../../src/core/oracle/state-machine.ts';

/**
 * Random command streams (proposals, disputes, decisions, forced outcomes and clock moves) against
 * a tiny ledger model: every account holds `balance` and `locked`. Effects must never unlock what
 * was not locked, must conserve value (collateral only moves between accounts, the treasury pays
 * rewards), must leave exactly the live bonds locked, and a question pays out at most once.
 */
const START = 1_764_000_000_000;
const USERS = ['0xa', '0xb', '0xc'];
const outcome = fc.constantFrom<OracleOutcome>('YES', 'NO', 'TIE');

const command: fc.Arbitrary<OracleCommand | { kind: 'advance'; ms: number }> = fc.oneof(
  fc.record({ kind: fc.constant('propose' as const), by: fc.oneof(fc.constantFrom(...USERS).map((a) => ({ kind: 'user' as const, account: a, userId: a })), fc.constant({ kind: 'operator' as const })), outcome }),
  fc.record({ kind: fc.constant('dispute' as const), by: fc.constantFrom(...USERS).map((a) => ({ kind: 'user' as const, account: a, userId: a })) }),
  fc.record({ kind: fc.constant('decide' as const), outcome }),
  fc.constant({ kind: 'tick' as const }),
  fc.record({ kind: fc.constant('force' as const), outcome }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 5_000 }) }),
);

const terms = fc.record({
  marketActive: fc.constant(true),
  endMs: fc.constantFrom<number | null>(START - 1, START + 2_000, null),
  proposalBondBaseUnits: fc.bigInt({ min: 0n, max: 1_000n }),
  rewardBaseUnits: fc.bigInt({ min: 0n, max: 500n }),
  livenessMs: fc.integer({ min: 1, max: 3_000 }),
  yesExcluded: fc.boolean(),
}) as fc.Arbitrary<QuestionTerms>;

class Ledger {
  readonly balance = new Map<string, bigint>();
  readonly locked = new Map<string, bigint>();
  constructor(accounts: string[], amount: bigint) {
    for (const a of accounts) this.balance.set(a, amount);
  }
  available(a: string) {
    return (this.balance.get(a) ?? 0n) - (this.locked.get(a) ?? 0n);
  }
  total() {
    return [...this.balance.values()].reduce((x, y) => x + y, 0n);
  }
  /** False (and no change) when a lock is not covered, as the real ledger refuses it. */
  apply(effects: OracleEffect[]): boolean {
    for (const e of effects) if (e.kind === 'lock' && this.available(e.account) < e.amount) return false;
    for (const e of effects) {
      assert.ok(e.amount > 0n, 'effects move positive amounts');
      if (e.kind === 'lock') this.locked.set(e.account, (this.locked.get(e.account) ?? 0n) + e.amount);
      if (e.kind === 'unlock') {
        assert.ok((this.locked.get(e.account) ?? 0n) >= e.amount, 'unlocks only what is locked');
        this.locked.set(e.account, this.locked.get(e.account)! - e.amount);
      }
      if (e.kind === 'pay') {
        const from = e.from === 'treasury' ? 'treasury' : e.from;
        const to = e.to === 'fees' ? 'fees' : e.to;
        assert.ok(this.available(from) >= e.amount, `${from} pays from available balance`);
        this.balance.set(from, this.balance.get(from)! - e.amount);
        this.balance.set(to, (this.balance.get(to) ?? 0n) + e.amount);
      }
    }
    return true;
  }
}

describe('oracle state machine under random commands', () => {
  it('conserves value, locks exactly the live bonds, and pays out once', () => {
    fc.assert(fc.property(terms, fc.array(command, { maxLength: 30 }), fc.bigInt({ min: 0n, max: 2_000n }), (t, commands, funds) => {
      const ledger = new Ledger([...USERS, 'treasury'], funds);
      ledger.balance.set('treasury', 10_000n);
      const before = ledger.total();
      let state: OracleState = UNPROPOSED;
      let now = START;
      let payouts = 0;
      for (const c of commands) {
        if (c.kind === 'advance') {
          now += c.ms;
          continue;
        }
        const result = applyOracle('m', state, c, t, now);
        if (!result.ok) continue;
        if (!ledger.apply(result.effects)) continue;
        if (result.state.status === 'SETTLED' && state.status !== 'SETTLED') payouts += 1;
        state = result.state;
        for (const a of USERS) {
          const expected = lockedBonds(state).filter((b) => b.account === a).reduce((x, b) => x + b.amount, 0n);
          assert.equal(ledger.locked.get(a) ?? 0n, expected, `locked bonds of ${a}`);
        }
      }
      assert.ok(payouts <= 1, 'a question settles at most once');
      assert.equal(ledger.total(), before, 'value is conserved');
      if (state.status === 'SETTLED') {
        const resolved = resolveQuestion(state, now);
        assert.ok(resolved.ok && resolved.state.status === 'RESOLVED');
        assert.ok(!resolveQuestion(resolved.state, now).ok, 'RESOLVED is final');
        assert.ok(!applyOracle('m', resolved.state, { kind: 'force', outcome: 'NO' }, t, now).ok);
      }
    }), { numRuns: 500 });
  });
});

describe('oracle state machine: the rules of EXTENSIONS.md section 4', () => {
  const t: QuestionTerms = { marketActive: true, endMs: START, proposalBondBaseUnits: 100n, rewardBaseUnits: 10n, livenessMs: 1000, yesExcluded: false };
  const alice = { kind: 'user' as const, account: '0xa', userId: 'a' };
  const bob = { kind: 'user' as const, account: '0xb', userId: 'b' };
  const ok = (r: ReturnType<typeof applyOracle>) => {
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r;
  };

  it('refuses proposals before the end, a second proposal, and self-disputes; operators may propose early', () => {
    assert.deepEqual(pick(applyOracle('m', UNPROPOSED, { kind: 'propose', by: alice, outcome: 'YES' }, t, START - 1)), 'VALIDATION_FAILED');
    assert.equal(ok(applyOracle('m', UNPROPOSED, { kind: 'propose', by: { kind: 'operator' }, outcome: 'YES' }, t, START - 1)).effects.length, 0);
    const proposed = ok(applyOracle('m', UNPROPOSED, { kind: 'propose', by: alice, outcome: 'YES' }, t, START));
    assert.deepEqual(proposed.effects, [{ kind: 'lock', account: '0xa', amount: 100n, ref: 'bond:m:proposal' }]);
    assert.equal(pick(applyOracle('m', proposed.state, { kind: 'propose', by: bob, outcome: 'NO' }, t, START)), 'CONFLICT');
    assert.equal(pick(applyOracle('m', proposed.state, { kind: 'dispute', by: alice }, t, START)), 'FORBIDDEN');
    assert.equal(pick(applyOracle('m', proposed.state, { kind: 'dispute', by: bob }, t, START + 1000)), 'CONFLICT');
    assert.equal(pick(applyOracle('m', proposed.state, { kind: 'decide', outcome: 'NO' }, t, START)), 'CONFLICT');
  });

  it('undisputed: the window end returns the bond and pays the reward', () => {
    const proposed = ok(applyOracle('m', UNPROPOSED, { kind: 'propose', by: alice, outcome: 'NO' }, t, START));
    assert.equal(ok(applyOracle('m', proposed.state, { kind: 'tick' }, t, START + 999)).state.status, 'PROPOSED');
    const settled = ok(applyOracle('m', proposed.state, { kind: 'tick' }, t, START + 1000));
    assert.equal(settled.state.finalOutcome, 'NO');
    assert.deepEqual(settled.effects, [
      { kind: 'unlock', account: '0xa', amount: 100n, ref: 'bond:m:proposal' },
      { kind: 'pay', from: 'treasury', to: '0xa', amount: 10n, why: 'ORACLE_REWARD' },
    ]);
  });

  it('disputed: the right side gets its bond, half the other and the reward; the fee account the other half', () => {
    const proposed = ok(applyOracle('m', UNPROPOSED, { kind: 'propose', by: alice, outcome: 'YES' }, t, START));
    const disputed = ok(applyOracle('m', proposed.state, { kind: 'dispute', by: bob }, t, START + 10));
    assert.equal(ok(applyOracle('m', disputed.state, { kind: 'tick' }, t, START + 5000)).state.status, 'DISPUTED');
    const decided = ok(applyOracle('m', disputed.state, { kind: 'decide', outcome: 'NO' }, t, START + 20));
    assert.deepEqual(decided.effects.filter((e) => e.kind === 'pay'), [
      { kind: 'pay', from: '0xa', to: '0xb', amount: 50n, why: 'BOND_FORFEIT' },
      { kind: 'pay', from: '0xa', to: 'fees', amount: 50n, why: 'BOND_FORFEIT' },
      { kind: 'pay', from: 'treasury', to: '0xb', amount: 10n, why: 'ORACLE_REWARD' },
    ]);
  });
});

function pick(result: ReturnType<typeof applyOracle>): string {
  return result.ok ? 'ok' : result.code;
}
