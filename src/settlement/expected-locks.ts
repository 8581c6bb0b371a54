import { costBaseUnits, reservationFor } from '../core/orders/reservation.ts';
import type { Db } from '../store/database.ts';
import { listMatchedTradeParties, listOpenOrderTerms } from '../store/ledger-audit-repository.ts';
import { lockKey, type ExpectedLocks } from './audit.ts';
import { COLLATERAL } from './types.ts';

/**
 * What open orders must keep locked, computed from the stored orders with the same rule the engine
 * reserves by (core/orders/reservation.ts): a BUY its remaining cost plus its largest fee, a SELL
 * its remaining tokens. Matched trades not yet settled keep what they will move locked: a buyer
 * its cost and fee, a seller its tokens. Other lock holders (oracle bonds) add their own entries.
 */
export async function expectedOrderLocks(db: Db): Promise<ExpectedLocks> {
  const locks: ExpectedLocks = new Map();
  for (const order of await listOpenOrderTerms(db)) {
    if (order.remainingBaseUnits <= 0n) continue;
    const key = lockKey(order.account, order.side === 'BUY' ? COLLATERAL : order.tokenId);
    locks.set(key, (locks.get(key) ?? 0n) + reservationFor(order, order.remainingBaseUnits));
  }
  for (const party of await listMatchedTradeParties(db)) {
    const buying = party.side === 'BUY';
    const key = lockKey(party.account, buying ? COLLATERAL : party.tokenId);
    const amount = buying ? costBaseUnits(party.priceMicros, party.sizeBaseUnits) + party.feeBaseUnits : party.sizeBaseUnits;
    locks.set(key, (locks.get(key) ?? 0n) + amount);
  }
  return locks;
}
