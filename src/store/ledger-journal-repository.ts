import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The settlement ledger's markets as the tables hold them (the engine's projection writes them). */
export interface LedgerMarket {
  conditionId: string;
  tokenId1: string;
  tokenId2: string;
  /** Null until resolved. */
  payout: { payout1: number; payout2: number; den: number } | null;
}

/** Every market of the ledger, by condition id. */
export async function listMarkets(db: Db): Promise<LedgerMarket[]> {
  return (await db.selectFrom('ledger_markets').selectAll().orderBy('condition_id').execute()).map(toMarket);
}

function toMarket(row: { condition_id: string; token_id1: string; token_id2: string; payout1: number | null; payout2: number | null; payout_den: number | null }): LedgerMarket {
  const resolved = row.payout1 !== null && row.payout2 !== null && row.payout_den !== null;
  return {
    conditionId: row.condition_id,
    tokenId1: row.token_id1,
    tokenId2: row.token_id2,
    payout: resolved ? { payout1: row.payout1!, payout2: row.payout2!, den: row.payout_den! } : null,
  };
}

/**
 * The account a ledger transaction moved `asset` into (where a withdrawal went: WITHDRAWN, or the
 * account of the user whose wallet it paid); undefined until the tables hold the transaction.
 */
export async function creditedAccountOf(db: Db, txHash: string, asset: string): Promise<string | undefined> {
  const { rows } = await sql<{ account: string }>`
    SELECT e.account FROM ledger_entries e JOIN ledger_transactions t ON t.seq = e.tx_seq
    WHERE t.tx_hash = ${txHash} AND e.asset = ${asset} AND e.amount > 0 LIMIT 1`.execute(db);
  return rows[0]?.account;
}
