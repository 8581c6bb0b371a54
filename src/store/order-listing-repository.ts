import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { OrderRow } from './orders-repository.ts';
import type { OrderStatus } from './schema.ts';

export type OrderSortKey = 'created_at' | 'total' | 'amount' | 'filled';
export type SortDirection = 'ASC' | 'DESC';

export interface OrderListFilter {
  userId: string;
  statuses: OrderStatus[];
  /** Only these markets; undefined means any. An empty list matches nothing. */
  marketIds?: string[] | undefined;
  /** The order's `maker` address, any letter case. */
  maker?: string | undefined;
}

export interface OrderListPage {
  sortBy: OrderSortKey;
  order: SortDirection;
  limit: number;
  offset: number;
  /** Keyset position (created_at sort only): rows strictly after this one in the listing order. */
  after?: { createdAt: Date; bookSeq: bigint } | undefined;
}

/**
 * A caller's orders, filtered and sorted. Ties break on `book_seq`, the engine's acceptance order,
 * so orders of one batch (one timestamp) still list newest first and pages never overlap.
 */
export async function listOrders(db: Db, filter: OrderListFilter, page: OrderListPage): Promise<OrderRow[]> {
  if (filter.marketIds?.length === 0 || filter.statuses.length === 0) return [];
  const direction = page.order === 'ASC' ? sql`ASC` : sql`DESC`;
  let query = filtered(db, filter).selectAll();
  if (page.after) {
    const { createdAt, bookSeq } = page.after;
    query = page.order === 'ASC'
      ? query.where(sql<boolean>`(created_at, book_seq) > (${createdAt}, ${bookSeq})`)
      : query.where(sql<boolean>`(created_at, book_seq) < (${createdAt}, ${bookSeq})`);
  }
  return query
    .orderBy(sql`${sortExpression(page.sortBy)} ${direction}`)
    .orderBy(sql`book_seq ${direction}`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many orders match, counting no further than `cap` (totals are bounded, SPEC.md section 8). */
export async function countOrders(db: Db, filter: OrderListFilter, cap: number): Promise<number> {
  if (filter.marketIds?.length === 0 || filter.statuses.length === 0) return 0;
  const capped = filtered(db, filter).select('id').limit(cap);
  const row = await db.selectFrom(capped.as('capped')).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

function filtered(db: Db, filter: OrderListFilter) {
  let query = db.selectFrom('orders').where('user_id', '=', filter.userId).where('status', 'in', filter.statuses);
  if (filter.marketIds) query = query.where('market_id', 'in', filter.marketIds);
  if (filter.maker) query = query.where(sql<boolean>`lower(maker) = ${filter.maker.toLowerCase()}`);
  return query;
}

function sortExpression(key: OrderSortKey) {
  switch (key) {
    case 'created_at':
      return sql`created_at`;
    case 'total':
      return sql`price_micros * size_base_units`;
    case 'amount':
      return sql`size_base_units`;
    case 'filled':
      return sql`matched_base_units`;
  }
}
