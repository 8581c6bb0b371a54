import type { Insertable } from 'kysely';
import type { Db } from './database.ts';
import { POSITION_MARKET_COLUMNS, type PositionMarketRef } from './position-market-columns.ts';
import type { RedemptionsTable } from './schema.ts';

/** Redemptions of resolved markets (migration 0009_oracle) and the positions left to redeem. */
export async function insertRedemptions(db: Db, rows: Insertable<RedemptionsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('redemptions').values(rows).execute();
}

/** Resolved markets where the account still holds tokens of either outcome, newest resolution first. */
export async function findRedeemableMarkets(db: Db, account: string): Promise<PositionMarketRef[]> {
  const rows = await db.selectFrom('markets as m')
    .select(POSITION_MARKET_COLUMNS)
    .where('m.is_resolved', '=', true)
    .where(({ exists, selectFrom }) => exists(selectFrom('ledger_balances as b').select('b.asset')
      .where('b.account', '=', account)
      .where('b.balance', '>', '0')
      .where((eb) => eb.or([eb('b.asset', '=', eb.ref('m.token_id1')), eb('b.asset', '=', eb.ref('m.token_id2'))]))))
    .orderBy('m.resolved_on_adapter_timestamp', 'desc').orderBy('m.id')
    .execute();
  // Only published markets hold tokens, and publishing sets their settlement ids.
  return rows as PositionMarketRef[];
}
