import type { Db } from './database.ts';
import { POSITION_MARKET_COLUMNS, type PositionMarketRef } from './position-market-columns.ts';


/**
 * ACTIVE, unresolved markets where the account has tokens of both outcomes available (not
 * reserved by open orders), so that every market listed can merge something; newest market first.
 */
export async function findMergeableMarkets(db: Db, account: string): Promise<PositionMarketRef[]> {
  const rows = await db.selectFrom('markets as m')
    .innerJoin('ledger_balances as b1', (join) => join.onRef('b1.asset', '=', 'm.token_id1').on('b1.account', '=', account))
    .innerJoin('ledger_balances as b2', (join) => join.onRef('b2.asset', '=', 'm.token_id2').on('b2.account', '=', account))
    .select(POSITION_MARKET_COLUMNS)
    .where('m.status', '=', 'ACTIVE')
    .where('m.is_resolved', '=', false)
    .whereRef('b1.balance', '>', 'b1.locked')
    .whereRef('b2.balance', '>', 'b2.locked')
    .orderBy('m.created_at', 'desc').orderBy('m.id')
    .execute();
  // Only published markets hold tokens, and publishing sets their settlement ids.
  return rows as PositionMarketRef[];
}
