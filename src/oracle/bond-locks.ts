import { lockedBonds } from '../core/oracle/state-machine.ts';
import { lockKey, type ExpectedLocks } from '../settlement/audit.ts';
import { COLLATERAL } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';
import { findOpenQuestions } from '../store/oracle-questions-repository.ts';

/** Adds what open oracle questions keep locked (their bonds) to the audit's expected locks. */
export async function addBondLocks(db: Db, locks: ExpectedLocks): Promise<ExpectedLocks> {
  for (const state of await findOpenQuestions(db)) {
    for (const bond of lockedBonds(state)) {
      const key = lockKey(bond.account, COLLATERAL);
      locks.set(key, (locks.get(key) ?? 0n) + bond.amount);
    }
  }
  return locks;
}
