import { AppError } from '../contract/errors.ts';
import type { RollingLimit } from './limits/rolling-limit.ts';

/**
 * A wallet's requests that have the operator relay transactions for it on chain (withdraw, split,
 * merge, redeem), at most this many at once on a node. The operator sends one transaction at a
 * time and pays each one's gas, so without a bound one user (or a stolen API key: split and merge
 * need no signature of the owner) could fill its queue of 1,000, and everyone's withdrawals,
 * payouts and market preparation would wait behind it.
 */
const MAX_RELAYS_PER_WALLET = 8;

/**
 * Counts each wallet's relaying requests on this node, and refuses one beyond the bound (429,
 * Retry-After: 1). The bound holds what a wallet has the operator send at once, not how much gas
 * it makes the operator pay in all: a split and a merge of one another in a loop cost the user
 * nothing. So `hourly` (WALLET_RELAYS_PER_HOUR, across nodes) bounds that, refusing with the
 * seconds until the wallet's oldest relay of the hour leaves it.
 */
export class WalletRelays {
  private readonly inFlight = new Map<string, number>();

  /** `onChain`: whether these requests relay at all (not on CHAIN=none, where nothing is counted). */
  constructor(private readonly onChain: boolean, private readonly hourly: RollingLimit | undefined = undefined) {}

  async one<T>(wallet: string, work: () => Promise<T>): Promise<T> {
    if (!this.onChain) return work();
    const key = wallet.toLowerCase();
    const count = this.inFlight.get(key) ?? 0;
    if (count >= MAX_RELAYS_PER_WALLET) {
      throw new AppError('RATE_LIMITED', `this wallet has ${count} requests being sent on chain, the most at once: send this one once one is answered`, { 'retry-after': '1' });
    }
    this.inFlight.set(key, count + 1);
    try {
      await this.hourly?.take(key);
      return await work();
    } finally {
      const left = this.inFlight.get(key)! - 1;
      if (left === 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    }
  }
}
