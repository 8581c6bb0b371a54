import { lockedBonds } from '../core/oracle/state-machine.ts';
import { REWARD_TREASURY } from '../settlement/accounts.ts';
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

/**
 * Adds the oracle rewards escrowed in the reward treasury to the audit's expected locks. The
 * tables do not record escrows: they come from the journal's replay (`pmx audit` replays it
 * first), so a market published between that replay and the tables' read shows as a treasury
 * lock above what is expected; an audit run again agrees.
 */
export function addEscrowLocks(escrows: ReadonlyMap<string, bigint>, locks: ExpectedLocks): ExpectedLocks {
  const key = lockKey(REWARD_TREASURY, COLLATERAL);
  for (const amount of escrows.values()) locks.set(key, (locks.get(key) ?? 0n) + amount);
  return locks;
}
