import { formatPrice, unitsToNumber } from '../core/money.ts';
import type { CatalogueReads } from '../catalogue/reads.ts';
import type { Db } from '../store/database.ts';
import {
  countActivity, listActivity,
  type ActivityFilter, type ActivityRow, type ActivitySortKey, type ActivityType, type SortOrder,
} from '../store/market-data-activity-repository.ts';
import { decodeActivityCursor, encodeActivityCursor } from './activity-cursor.ts';

/** SPEC.md section 2 "Activity": the market's fields, then what one party did in it. */
export interface Activity {
  id: string;
  name: string;
  slug: string;
  description: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  startDate: string;
  /** Null only when neither the market nor its event has an end date. */
  endDate: string | null;
  protected: boolean;
  icon: string;
  tokenId1: string;
  tokenId2: string;
  conditionId: string;
  proxy_address: string;
  outcome1: string;
  outcome2: string;
  type: ActivityType;
  timestamp: number;
  hash: string;
  amount: number;
  parent_collection_id: string;
  partition: number[];
  isResolved: boolean;
  price: string;
  fee: number;
  /** BUY and SELL rows: which outcome the party traded (0 for tokenId1, 1 for tokenId2). */
  outcomeIndex?: number;
}

/** Conditional-token positions of a binary market sit under the root collection, partitioned {1}, {2}. */
const ROOT_COLLECTION = `0x${'0'.repeat(64)}`;

export function toActivity(row: ActivityRow): Activity {
  return {
    id: row.market_id,
    name: row.market_name,
    slug: row.market_slug,
    description: row.market_description,
    createdAt: row.market_created_at.toISOString(),
    createdBy: row.market_created_by,
    updatedAt: row.market_updated_at.toISOString(),
    startDate: row.start_date.toISOString(),
    endDate: row.end_date === null ? null : row.end_date.toISOString(),
    protected: row.protected,
    icon: row.market_icon,
    tokenId1: row.token_id1,
    tokenId2: row.token_id2,
    conditionId: row.condition_id,
    proxy_address: row.account,
    outcome1: row.outcome1,
    outcome2: row.outcome2,
    type: row.type,
    timestamp: Number(BigInt(row.at_us) / 1_000_000n),
    hash: row.hash,
    amount: unitsToNumber(BigInt(row.amount_base_units)),
    parent_collection_id: ROOT_COLLECTION,
    partition: [1, 2],
    isResolved: row.is_resolved,
    price: formatPrice(BigInt(row.price_micros)),
    fee: unitsToNumber(BigInt(row.fee_base_units)),
    ...(row.token_id === null ? {} : { outcomeIndex: row.token_id === row.token_id1 ? 0 : 1 }),
  };
}

/** `total=true` counts at most this far, then flags `totalCapped`. */
export const ACTIVITY_TOTAL_CAP = 10_000;
/** SPEC.md section 8: offset mode of `GET /markets/activity` reaches the first 1,000 rows. */
export const MARKET_ACTIVITY_OFFSET_WINDOW = 1_000;

export interface ActivityListQuery {
  sort: ActivitySortKey;
  order: SortOrder;
  page: number;
  limit: number;
  total: boolean;
  /** Present (even empty) selects cursor mode; empty starts at the first row. */
  cursor?: string | undefined;
  /** Offset mode returns only rows within the first `offsetWindow` (unbounded when undefined). */
  offsetWindow?: number | undefined;
}

export interface ActivityOffsetPage<T = Activity> {
  data: T[];
  total: number | null;
  totalCapped?: boolean;
  page: number;
  limit: number;
  hasMore: boolean;
}

export interface ActivityCursorPage<T = Activity> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * One page of activity rows matching `filter`, in offset or cursor mode, each row shaped by `view`.
 * The market routes use `toActivity`; a user's activity is the same with `filter.account` set and
 * the user variant's view.
 */
export function readActivity<T>(db: Db, filter: ActivityFilter, q: ActivityListQuery, view: (row: ActivityRow) => T): Promise<ActivityOffsetPage<T> | ActivityCursorPage<T>> {
  return q.cursor === undefined ? readActivityPage(db, filter, q, view) : readActivityAfter(db, filter, { ...q, cursor: q.cursor }, view);
}

async function readActivityAfter<T>(db: Db, filter: ActivityFilter, q: ActivityListQuery & { cursor: string }, view: (row: ActivityRow) => T): Promise<ActivityCursorPage<T>> {
  const after = q.cursor === '' ? undefined : decodeActivityCursor(q.cursor, q.sort, q.order);
  const rows = await listActivity(db, filter, { sort: q.sort, order: q.order, offset: 0, limit: q.limit, after });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const hasMore = rows.length > q.limit;
  return {
    data: page.map(view),
    hasMore,
    nextCursor: hasMore && last ? encodeActivityCursor({ sort: q.sort, order: q.order, value: last.cursor_value, key: last.row_key }) : null,
  };
}

/** Offset mode: page `q.page` of `q.limit` rows, with a bounded total when asked. */
export async function readActivityPage<T>(db: Db, filter: ActivityFilter, q: Omit<ActivityListQuery, 'cursor'>, view: (row: ActivityRow) => T): Promise<ActivityOffsetPage<T>> {
  const offset = (q.page - 1) * q.limit;
  const window = q.offsetWindow ?? Number.POSITIVE_INFINITY;
  const limit = Math.max(0, Math.min(q.limit, window - offset));
  const rows = limit === 0 ? [] : await listActivity(db, filter, { sort: q.sort, order: q.order, offset, limit });
  const counted = q.total ? await countActivity(db, filter, ACTIVITY_TOTAL_CAP + 1) : null;
  return {
    data: rows.slice(0, limit).map(view),
    total: counted === null ? null : Math.min(counted, ACTIVITY_TOTAL_CAP),
    ...(counted === null ? {} : { totalCapped: counted > ACTIVITY_TOTAL_CAP }),
    page: q.page,
    limit: q.limit,
    // Rows past the offset window exist but are reached with a cursor, not another page.
    hasMore: rows.length > limit && offset + limit < window,
  };
}

/** GET /markets/activity and GET /markets/activity/{marketId} (SPEC.md 4.2). */
export class MarketActivityReads {
  constructor(private readonly db: Db, private readonly catalogue: CatalogueReads) {}

  /** Every market's activity; offset mode is limited to the first 1,000 rows. */
  all(filter: { type?: 'BUY' | 'SELL' | undefined; name?: string | undefined }, q: ActivityListQuery) {
    return readActivity(this.db, { types: filter.type && [filter.type], marketName: filter.name }, { ...q, offsetWindow: MARKET_ACTIVITY_OFFSET_WINDOW }, toActivity);
  }

  /** One market's activity; unknown (or, for the public, DRAFT) markets are 404. */
  async ofMarket(marketId: string, filter: { proxyAddress?: string | undefined; type?: 'SPLIT' | 'MERGE' | 'REDEEM' | undefined }, q: ActivityListQuery, admin: boolean) {
    const market = await this.catalogue.getMarket(marketId, admin);
    return readActivity(this.db, { marketId: market.id, account: filter.proxyAddress?.toLowerCase(), types: filter.type && [filter.type] }, q, toActivity);
  }
}
