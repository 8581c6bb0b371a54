import type { MatchingEngine } from '../engine/engine.ts';
import { userAccount } from '../settlement/accounts.ts';
import type { ConditionalTokenOperations } from './operations.ts';

/** CHAIN=none: the engine's ledger is the whole settlement layer, so each operation is its command alone. */
export function engineOperations(engine: Pick<MatchingEngine, 'split' | 'merge' | 'redeem'>): ConditionalTokenOperations {
  return {
    split: (holder, marketId, amount) => engine.split({ account: userAccount(holder.proxyWallet), marketId, amount }),
    merge: (holder, marketIds) => engine.merge({ account: userAccount(holder.proxyWallet), marketIds }),
    redeem: (holder, marketIds) => engine.redeem({ userId: holder.userId, account: userAccount(holder.proxyWallet), marketIds }),
  };
}
