import type {
  BatchMergeResponse, BatchRedeemResponse, MergeablePosition, RedeemablePosition, UserActivityPage, UserActivityParams, UserPositionsPage, UserPositionsParams,
  UserPositionValue, UserPositionValueParams,
} from '../types.ts';
import type { Query } from '../transport.ts';
import type { ClientContext } from './context.ts';

/** The caller's positions, activity, merges and redeems (SPEC.md 4.3), API key HMAC. */
export function portfolioSection({ transport }: ClientContext) {
  const batch = <T>(path: string, marketIds: readonly string[]) =>
    // Retrying is safe: a second redeem or merge of the same markets finds nothing left to move.
    transport.call<T>('POST', path, { auth: 'apiKey', body: { marketIds }, idempotent: true });
  const get = <T>(path: string, query?: Query) => transport.call<T>('GET', path, { auth: 'apiKey', ...(query ? { query } : {}) });
  return {
    /** Held positions valued at the latest prices, one page (default 10, at most 100, by `latest` descending). */
    positions: (params: UserPositionsParams = {}) => get<UserPositionsPage>('/markets/user-positions', params),
    /** USD value of the positions of `user` (default: the caller), optionally of some markets only. */
    value: (params: UserPositionValueParams = {}) => get<UserPositionValue>('/markets/value', params),
    /** The caller's trades, splits, merges and redeems, one page (counted unless `total: false`). */
    activity: (params: UserActivityParams = {}) => get<UserActivityPage>('/markets/user-activity', params),
    /** How many distinct markets the caller has traded in. */
    tradedCount: () => get<number>('/markets/traded-count'),
    /** Resolved markets where the caller still holds tokens of either outcome. */
    redeemable: () => get<RedeemablePosition[]>('/markets/redeemable-positions'),
    /** Redeems one resolved market (a batch of one). */
    redeem: (marketId: string) => batch<BatchRedeemResponse>('/markets/redeem-positions/batch', [marketId]),
    /**
     * Redeems several resolved markets in one request (on a chain the server sends one transaction
     * per market); markets it cannot redeem come back in `excluded` with a reason. The server
     * takes at most POSITION_BATCH_MAX ids (default 50).
     */
    redeemMany: (marketIds: readonly string[]) => batch<BatchRedeemResponse>('/markets/redeem-positions/batch', marketIds),
    /** Active markets where the caller has both outcomes available (not reserved by orders). */
    mergeable: () => get<MergeablePosition[]>('/markets/mergeable-positions'),
    /**
     * Merges complete sets back to collateral in each market, in one request (on a chain the server
     * sends one transaction per market): the smaller of the two available balances. Same batch
     * limit as `redeemMany`.
     */
    mergeMany: (marketIds: readonly string[]) => batch<BatchMergeResponse>('/markets/merge-positions/batch', marketIds),
  };
}
