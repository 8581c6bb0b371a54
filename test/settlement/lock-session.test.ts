import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createManualClock } from '../../src/clock.ts';
import { auditLedger, COLLATERAL, createEmbeddedSettlement, InsufficientBalanceError, lockKey, type HeldBalances, type Settlement } from '../../src/settlement/index.ts';
import type { Db, Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';
import { inTransaction } from '../../src/settlement/embedded/retry.ts';

const wallet = (n: number) => `0x${(0xabc000 + n).toString(16).padStart(40, '0')}`;

describe('batched lock sessions (the engine’s reservations)', () => {
  let store: Store;
  let ledger: Settlement;
  before(async () => {
    store = await openTestStore();
    ledger = createEmbeddedSettlement({ clock: createManualClock(1_700_000_000_000) });
  });
  after(async () => {
    await store.close();
  });

  it('checks reserves in memory against the balance, lets released amounts be reserved again, and writes once', async () => {
    const a = wallet(1);
    await inTransaction(store.db, (tx) => ledger.credit(tx, { account: a, amount: 100n, reason: 'DEPOSIT', ref: 'seed' }));
    await inTransaction(store.db, async (tx) => {
      const locks = await ledger.openLockSession(tx, [{ account: a, asset: COLLATERAL }]);
      locks.reserve({ account: a, asset: COLLATERAL, amount: 70n, ref: 'o1' });
      assert.throws(() => locks.reserve({ account: a, asset: COLLATERAL, amount: 31n, ref: 'o2' }), (error: unknown) => error instanceof InsufficientBalanceError && error.available === 30n);
      locks.release({ account: a, asset: COLLATERAL, amount: 20n, ref: 'o1' });
      locks.reserve({ account: a, asset: COLLATERAL, amount: 50n, ref: 'o3' });
      await locks.flush();
    });
    assert.deepEqual((await ledger.balances(store.db, a)).collateral, { balance: 100n, locked: 100n, available: 0n });
  });

  it('refuses a reserve for an account with no balance row', async () => {
    await inTransaction(store.db, async (tx) => {
      const locks = await ledger.openLockSession(tx, [{ account: wallet(2), asset: COLLATERAL }]);
      assert.throws(() => locks.reserve({ account: wallet(2), asset: COLLATERAL, amount: 1n, ref: 'o' }), InsufficientBalanceError);
    });
  });

  it('holds rows for later sessions: reads only the rows it lacks, keeps them current, and reads again once forgotten', async () => {
    const a = wallet(3);
    const held = ledger.heldBalances();
    const open = (tx: Db) => ledger.openLockSession(tx, [{ account: a, asset: COLLATERAL }], held);
    await inTransaction(store.db, (tx) => ledger.credit(tx, { account: a, amount: 100n, reason: 'DEPOSIT', ref: 'seed' }));
    await inTransaction(store.db, async (tx) => {
      const locks = await open(tx);
      locks.reserve({ account: a, asset: COLLATERAL, amount: 60n, ref: 'o1' });
      await locks.flush();
    });
    // A credit its holder does not hear of: the held row (available 40) is what the next session sees.
    await inTransaction(store.db, (tx) => ledger.credit(tx, { account: a, amount: 50n, reason: 'DEPOSIT', ref: 'unheard' }));
    await inTransaction(store.db, async (tx) => {
      const locks = await open(tx);
      assert.throws(() => locks.reserve({ account: a, asset: COLLATERAL, amount: 41n, ref: 'o2' }), (error: unknown) => error instanceof InsufficientBalanceError && error.available === 40n);
      locks.reserve({ account: a, asset: COLLATERAL, amount: 40n, ref: 'o2' });
      await locks.flush();
    });
    held.forget();
    await inTransaction(store.db, async (tx) => {
      const locks = await open(tx);
      locks.reserve({ account: a, asset: COLLATERAL, amount: 50n, ref: 'o3' });
      assert.throws(() => locks.reserve({ account: a, asset: COLLATERAL, amount: 1n, ref: 'o4' }), InsufficientBalanceError);
      await locks.flush();
    });
    assert.deepEqual((await ledger.balances(store.db, a)).collateral, { balance: 150n, locked: 150n, available: 0n });
  });

  for (const holding of [false, true]) {
    it(`random reserve/release sequences end with exactly the expected locks${holding ? ', every session on the rows held by the ones before' : ''}`, async () => {
      await randomSequences(holding ? [wallet(20), wallet(21), wallet(22)] : [wallet(10), wallet(11), wallet(12)], holding ? ledger.heldBalances() : undefined);
    });
  }

  /** Sessions of random reserves and releases (one transaction each), their locks audited after each. */
  async function randomSequences(accounts: string[], held: HeldBalances | undefined): Promise<void> {
    for (const account of accounts) await inTransaction(store.db, (tx) => ledger.credit(tx, { account, amount: 1_000n, reason: 'DEPOSIT', ref: 'seed' }));
    const expected = new Map(accounts.map((a) => [a, 0n]));
    const op = fc.record({ who: fc.nat(accounts.length - 1), amount: fc.bigInt({ min: 1n, max: 400n }), release: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        await inTransaction(store.db, async (tx) => {
          const locks = await ledger.openLockSession(tx, accounts.map((account) => ({ account, asset: COLLATERAL })), held);
          for (const { who, amount, release } of ops) {
            const account = accounts[who]!;
            const locked = expected.get(account)!;
            if (release) {
              const freed = amount < locked ? amount : locked;
              if (freed > 0n) locks.release({ account, asset: COLLATERAL, amount: freed, ref: 'r' });
              expected.set(account, locked - freed);
            } else if (locked + amount <= 1_000n) {
              locks.reserve({ account, asset: COLLATERAL, amount, ref: 'o' });
              expected.set(account, locked + amount);
            } else {
              assert.throws(() => locks.reserve({ account, asset: COLLATERAL, amount, ref: 'o' }), InsufficientBalanceError);
            }
          }
          await locks.flush();
        });
        const report = await auditLedger(store.db, new Map([...expected].map(([account, locked]) => [lockKey(account, COLLATERAL), locked])));
        assert.deepEqual(report.violations.filter((v) => v.invariant === 'locks-match-commitments' && accounts.some((a) => JSON.stringify(v).includes(a))), []);
      }),
      { numRuns: 25 },
    );
  }
});
