import { sql } from 'kysely';
import type { Db } from './database.ts';

export interface UserTokenBalance {
  user_id: string;
  asset: string;
  balance: string;
}

/** Current token balances of these users in these tokens, at most `limit` rows (SPEC.md 4.1). */
/** Who reads: anonymous users' rows are shown only to the operator and to the users themselves. */
export interface AnonymityViewer {
  admin: boolean;
  userId: string | undefined;
}

export async function userTokenBalances(db: Db, userIds: string[], tokenIds: string[], limit: number, viewer: AnonymityViewer): Promise<UserTokenBalance[]> {
  if (userIds.length === 0 || tokenIds.length === 0) return [];
  return db.selectFrom('ledger_balances as b')
    .innerJoin('users as u', 'u.proxy_wallet', 'b.account')
    .select(['u.id as user_id', 'b.asset', 'b.balance'])
    .where('u.id', 'in', userIds)
    .$if(!viewer.admin, (q) => q.where((eb) => eb.or([eb('u.anonymous', '=', false), eb('u.id', '=', viewer.userId ?? null)])))
    .where('b.asset', 'in', tokenIds)
    .where(sql<boolean>`b.balance > 0`)
    .orderBy('u.id').orderBy('b.asset')
    .limit(limit)
    .execute();
}
