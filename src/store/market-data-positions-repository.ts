import { sql } from 'kysely';
import type { Db } from './database.ts';

export interface UserTokenBalance {
  user_id: string;
  asset: string;
  balance: string;
}

/** Current token balances of these users in these tokens, at most `limit` rows (SPEC.md 4.1). */
export async function userTokenBalances(db: Db, userIds: string[], tokenIds: string[], limit: number): Promise<UserTokenBalance[]> {
  if (userIds.length === 0 || tokenIds.length === 0) return [];
  return db.selectFrom('ledger_balances as b')
    .innerJoin('users as u', 'u.proxy_wallet', 'b.account')
    .select(['u.id as user_id', 'b.asset', 'b.balance'])
    .where('u.id', 'in', userIds)
    .where('b.asset', 'in', tokenIds)
    .where(sql<boolean>`b.balance > 0`)
    .orderBy('u.id').orderBy('b.asset')
    .limit(limit)
    .execute();
}
