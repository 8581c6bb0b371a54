import type { BatchMergeResponse, MergeablePosition, UserActivity, UserActivityParams, UserPositionsParams, UserPositionsResponse, UserPositionValue } from '../spec-types.ts';
import type { BatchRedeemResponse, RedeemablePosition } from '../types.ts';
import type { ClientContext } from './context.ts';

/**
 * The caller's positions (SPEC.md 4.3), API key HMAC. Redeem is on main and tested; the reads and
 * merge follow SPEC.md for routes still being built (types in spec-types.ts, no tests yet).
 */
export function portfolioSection({ transport }: ClientContext) {
  const batch = <T>(path: string, marketIds: readonly string[]) =>
    // Retrying is safe: a second redeem or merge of the same markets finds nothing left to move.
    transport.call<T>('POST', path, { auth: 'apiKey', body: { marketIds }, idempotent: true });
  const get = <T>(path: string, query?: Record<string, string | number | boolean | readonly string[] | undefined>) => transport.call<T>('GET', path, { auth: 'apiKey', ...(query ? { query } : {}) });
  return {
    /** Resolved markets where the caller still holds tokens of either outcome. */
    redeemable: () => get<RedeemablePosition[]>('/markets/redeemable-positions'),
    /** Redeems one resolved market (a batch of one). */
    redeem: (marketId: string) => batch<BatchRedeemResponse>('/markets/redeem-positions/batch', [marketId]),
    /**
     * Redeems several resolved markets in one transaction; markets it cannot redeem come back in
     * `excluded` with a reason. The server takes at most POSITION_BATCH_MAX ids (default 50).
     */
    redeemMany: (marketIds: readonly string[]) => batch<BatchRedeemResponse>('/markets/redeem-positions/batch', marketIds),

    positions: (params: UserPositionsParams = {}) => get<UserPositionsResponse>('/markets/user-positions', params),
    /** USD value of the positions of `user` (default: the caller), optionally of some markets only. */
    value: (params: { user?: string; markets?: readonly string[] } = {}) => get<UserPositionValue>('/markets/value', params),
    activity: (params: UserActivityParams = {}) => get<{ data: UserActivity[]; total: number | null; totalCapped?: boolean }>('/markets/user-activity', params),
    tradedCount: () => get<number>('/markets/traded-count'),
    /** Active markets where the caller holds both outcomes. */
    mergeable: () => get<MergeablePosition[]>('/markets/mergeable-positions'),
    /** Merges complete sets back to collateral in each market (amounts from the balances). */
    mergeMany: (marketIds: readonly string[]) => batch<BatchMergeResponse>('/markets/merge-positions/batch', marketIds),
  };
}
