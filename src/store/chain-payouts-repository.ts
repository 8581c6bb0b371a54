import { sql } from 'kysely';
import type { Db } from './database.ts';

/** An oracle reward the ledger paid from the reward treasury: the wallet it paid and how much. */
export interface LedgerPayout {
  ledgerTxHash: string;
  account: string;
  amount: bigint;
}

/**
 * The oracle rewards in the ledger's tables that have no payout on chain yet, oldest first: each
 * transaction's one credited collateral leg (its other leg debits the reward treasury).
 */
export async function listOracleRewardsUnpaidOnChain(db: Db, limit: number): Promise<LedgerPayout[]> {
  const rows = await db.selectFrom('ledger_transactions as t')
    .innerJoin('ledger_entries as e', 'e.tx_seq', 't.seq')
    .select(['t.tx_hash', 'e.account', 'e.amount'])
    .where('t.kind', '=', 'ORACLE_REWARD')
    .where('e.asset', '=', 'collateral')
    .where('e.amount', '>', sql<string>`0`)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('chain_payouts as p').select('p.ledger_tx_hash').whereRef('p.ledger_tx_hash', '=', 't.tx_hash'))))
    .orderBy('t.seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ledgerTxHash: row.tx_hash, account: row.account, amount: BigInt(row.amount) }));
}

export async function hasChainPayout(db: Db, ledgerTxHash: string): Promise<boolean> {
  return (await db.selectFrom('chain_payouts').select('ledger_tx_hash').where('ledger_tx_hash', '=', ledgerTxHash).executeTakeFirst()) !== undefined;
}

export async function recordChainPayout(db: Db, payout: LedgerPayout & { chainTxHash: string; paidAt: Date }): Promise<void> {
  await db.insertInto('chain_payouts')
    .values({ ledger_tx_hash: payout.ledgerTxHash, account: payout.account, amount: payout.amount, chain_tx_hash: payout.chainTxHash, paid_at: payout.paidAt })
    .onConflict((c) => c.column('ledger_tx_hash').doNothing())
    .execute();
}
