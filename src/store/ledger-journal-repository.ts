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

