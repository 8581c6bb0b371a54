import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The oracle's ledger transactions that move collateral on chain too (src/conditional-tokens/oracle-payouts-on-chain.ts). */
export const ORACLE_PAYOUT_KINDS = ['ORACLE_REWARD', 'BOND_FORFEIT'] as const;

/** An oracle payout the ledger made: its transaction, the account debited (the reward treasury, or a bond's loser) and the one credited. */
export interface LedgerPayout {
  ledgerTxHash: string;
  kind: (typeof ORACLE_PAYOUT_KINDS)[number];
  from: string;
  to: string;
  amount: bigint;
}

/** The oracle payouts in the ledger's tables that have no payout on chain yet, oldest first: each transaction's two collateral legs. */
export async function listOraclePayoutsUnpaidOnChain(db: Db, limit: number, afterSeq = -1n): Promise<(LedgerPayout & { seq: bigint })[]> {
  const rows = await db.selectFrom('ledger_transactions as t')
    .innerJoin('ledger_entries as debit', 'debit.tx_seq', 't.seq')
    .innerJoin('ledger_entries as credit', 'credit.tx_seq', 't.seq')
    .select(['t.seq', 't.tx_hash', 't.kind', 'debit.account as from', 'credit.account as to', 'credit.amount'])
    .where('t.seq', '>', afterSeq)
    .where('t.kind', 'in', ORACLE_PAYOUT_KINDS)
    .where('debit.asset', '=', 'collateral')
    .where('debit.amount', '<', sql<string>`0`)
    .where('credit.asset', '=', 'collateral')
    .where('credit.amount', '>', sql<string>`0`)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('chain_payouts as p').select('p.ledger_tx_hash').whereRef('p.ledger_tx_hash', '=', 't.tx_hash'))))
    .orderBy('t.seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ seq: BigInt(row.seq), ledgerTxHash: row.tx_hash, kind: row.kind as LedgerPayout['kind'], from: row.from, to: row.to, amount: BigInt(row.amount) }));
}

export async function hasChainPayout(db: Db, ledgerTxHash: string): Promise<boolean> {
  return (await db.selectFrom('chain_payouts').select('ledger_tx_hash').where('ledger_tx_hash', '=', ledgerTxHash).executeTakeFirst()) !== undefined;
}

export async function recordChainPayout(db: Db, payout: LedgerPayout & { chainTxHash: string; paidAt: Date }): Promise<void> {
  await db.insertInto('chain_payouts')
    .values({ ledger_tx_hash: payout.ledgerTxHash, account: payout.to, amount: payout.amount, chain_tx_hash: payout.chainTxHash, paid_at: payout.paidAt })
    .onConflict((c) => c.column('ledger_tx_hash').doNothing())
    .execute();
}
