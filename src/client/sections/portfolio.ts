import type { BatchRedeemResponse, RedeemablePosition } from '../types.ts';
import type { ClientContext } from './context.ts';

/** The caller's positions (SPEC.md 4.3), API key HMAC. */
export function portfolioSection({ transport }: ClientContext) {
  const redeemMany = (marketIds: readonly string[]) =>
    // Retrying is safe: a second redeem of the same markets finds no tokens and pays nothing.
    transport.call<BatchRedeemResponse>('POST', '/markets/redeem-positions/batch', { auth: 'apiKey', body: { marketIds }, idempotent: true });
  return {
    /** Resolved markets where the caller still holds tokens of either outcome. */
    redeemable: () => transport.call<RedeemablePosition[]>('GET', '/markets/redeemable-positions', { auth: 'apiKey' }),
    /** Redeems one resolved market (a batch of one). */
    redeem: (marketId: string) => redeemMany([marketId]),
    /**
     * Redeems several resolved markets in one transaction; markets it cannot redeem come back in
     * `excluded` with a reason. The server takes at most POSITION_BATCH_MAX ids (default 50).
     */
    redeemMany,
  };
}
