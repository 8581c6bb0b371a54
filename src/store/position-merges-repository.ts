import type { Db } from './database.ts';

export interface MergeableMarketRow {
  id: string;
  onchain_market_id: string;
  condition_id: string;
  token_id1: string;
  token_id2: string;
  slug: string;
  name: string;
}

/**
 * ACTIVE, unresolved markets where the account has tokens of both outcomes available (not
 * reserved by open orders), so that every market listed can merge something; newest market first.
 */
export async function findMergeableMarkets(db: Db, account: string): Promise<MergeableMarketRow[]> {
  const rows = await db.selectFrom('markets as m')
    .innerJoin('ledger_balances as b1', (join) => join.onRef('b1.asset', '=', 'm.token_id1').on('b1.account', '=', account))
    .innerJoin('ledger_balances as b2', (join) => join.onRef('b2.asset', '=', 'm.token_id2').on('b2.account', '=', account))
    .select(['m.id', 'm.onchain_market_id', 'm.condition_id', 'm.token_id1', 'm.token_id2', 'm.slug', 'm.name'])
    .where('m.status', '=', 'ACTIVE')
    .where('m.is_resolved', '=', false)
    .whereRef('b1.balance', '>', 'b1.locked')
    .whereRef('b2.balance', '>', 'b2.locked')
    .orderBy('m.created_at', 'desc').orderBy('m.id')
    .execute();
  return rows as MergeableMarketRow[];
}
