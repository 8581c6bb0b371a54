import { sql } from 'kysely';
import type { Db } from './database.ts';

export interface HolderRow {
  user_id: string;
  display_name: string | null;
  avatar_url: string | null;
  anonymous: boolean;
  proxy_wallet: string;
  balance: string;
}

/**
 * The largest holders of one token: users' current ledger balances (locked tokens included: a
 * resting SELL still owns them), largest first, ties by user id. System accounts are not users
 * and never appear.
 */
export async function topHolders(db: Db, tokenId: string, limit: number): Promise<HolderRow[]> {
  return db.selectFrom('ledger_balances as b')
    .innerJoin('users as u', 'u.proxy_wallet', 'b.account')
    .select(['u.id as user_id', 'u.display_name', 'u.avatar_url', 'u.anonymous', 'u.proxy_wallet', 'b.balance'])
    .where('b.asset', '=', tokenId)
    .where(sql<boolean>`b.balance > 0`)
    .orderBy(sql`b.balance`, 'desc').orderBy('u.id')
    .limit(limit)
    .execute();
}
