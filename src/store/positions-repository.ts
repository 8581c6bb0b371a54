import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { PositionState } from '../core/positions/position.ts';

/**
 * The position projection (migration 0011_positions): the projector's cursor, the journal rows it
 * consumes, the positions and the recorded P&L series it maintains.
 */

/** The cursor row, locked: one projector at a time, the others wait and then find nothing left. */
export async function lockPositionCursor(tx: Db): Promise<bigint> {
  const row = await tx.selectFrom('position_cursor').select('xid_horizon').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
  return BigInt(row.xid_horizon);
}

/** The cursor without a lock, to see whether there is anything to do. */
export async function readPositionCursor(db: Db): Promise<bigint> {
  const row = await db.selectFrom('position_cursor').select('xid_horizon').where('id', '=', 1).executeTakeFirstOrThrow();
  return BigInt(row.xid_horizon);
}

/** Whether any journal transaction has `from <= xid < to` (index ledger_transactions_by_xid). */
export async function hasJournalSince(db: Db, from: bigint, to: bigint): Promise<boolean> {
  if (to <= from) return false;
  const row = await db.selectFrom('ledger_transactions').select('seq')
    .where('xid', '>=', from).where('xid', '<', to).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function setPositionCursor(tx: Db, horizon: bigint): Promise<void> {
  await tx.updateTable('position_cursor').set({ xid_horizon: horizon }).where('id', '=', 1).execute();
}

/**
 * A transaction id below which every transaction of this database has finished: the oldest one
 * still running here (its own aside), else the snapshot's xmax. Transactions of other databases on
 * the same server are left out (they never write this journal), so a long one there does not hold
 * projection back. The snapshot is taken before the locks are read, so a transaction that starts
 * in between gets an id at or above xmax.
 */
export async function finishedXidHorizon(db: Db): Promise<bigint> {
  const { rows } = await sql<{ horizon: string }>`
    WITH s AS (SELECT pg_current_snapshot() AS snap),
    running_here AS (
      SELECT l.transactionid::text::bigint AS xid32 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'transactionid' AND a.datname = current_database() AND a.pid <> pg_backend_pid())
    SELECT least(
      pg_snapshot_xmax(s.snap)::text::bigint,
      (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s.snap) x WHERE x::text::bigint % 4294967296 IN (SELECT xid32 FROM running_here))
    )::text AS horizon FROM s`.execute(db);
  return BigInt(rows[0]!.horizon);
}

export interface JournalTokenMove {
  seq: bigint;
  kind: string;
  ref: string;
  createdAt: Date;
  account: string;
  tokenId: string;
  amount: bigint;
}

/**
 * Token entries of users' wallets in transactions with `from <= xid < to`, in ledger order. Each
 * transaction's entries are read through the entries' primary key (the LATERAL, fenced by OFFSET
 * 0, and `left()` in place of a LIKE the account index could serve): given the choice, the planner
 * took the account index, scanning every wallet's entries for each transaction, or hashed a scan
 * of every entry, a cost that grew with the whole ledger (23 ms a call against 3.8 ms this way in
 * the settlement bench; bench/ledger-moves.ts names the plans each query gets).
 */
export const tokenMovesQuery = (from: bigint, to: bigint) => sql<{ seq: bigint; kind: string; ref: string; created_at: Date; account: string; asset: string; amount: string }>`
    SELECT t.seq, t.kind, t.ref, t.created_at, e.account, e.asset, e.amount::text AS amount
    FROM ledger_transactions t
    CROSS JOIN LATERAL (
      SELECT e.idx, e.account, e.asset, e.amount FROM ledger_entries e
      WHERE e.tx_seq = t.seq AND left(e.account, 2) = '0x' AND e.asset <> 'collateral'
      OFFSET 0
    ) e
    WHERE t.xid >= ${from.toString()}::bigint AND t.xid < ${to.toString()}::bigint
    ORDER BY t.seq, e.idx`;

export async function listTokenMoves(db: Db, from: bigint, to: bigint): Promise<JournalTokenMove[]> {
  const { rows } = await tokenMovesQuery(from, to).execute(db);
  return rows.map((r) => ({ seq: BigInt(r.seq), kind: r.kind, ref: r.ref, createdAt: new Date(r.created_at), account: r.account, tokenId: r.asset, amount: BigInt(r.amount) }));
}

/** Every token entry of these (account, token) pairs in transactions with `xid < to`, in ledger order. */
export async function listTokenMovesOf(db: Db, pairs: Array<{ account: string; tokenId: string }>, to: bigint): Promise<JournalTokenMove[]> {
  if (pairs.length === 0) return [];
  const { rows } = await sql<{ seq: bigint; kind: string; ref: string; created_at: Date; account: string; asset: string; amount: string }>`
    SELECT t.seq, t.kind, t.ref, t.created_at, e.account, e.asset, e.amount::text AS amount
    FROM unnest(${pairs.map((p) => p.account)}::text[], ${pairs.map((p) => p.tokenId)}::text[]) AS k(account, asset)
    JOIN ledger_entries e ON e.account = k.account AND e.asset = k.asset
    JOIN ledger_transactions t ON t.seq = e.tx_seq
    WHERE t.xid < ${to.toString()}::bigint
    ORDER BY t.seq, e.idx`.execute(db);
  return rows.map((r) => ({ seq: BigInt(r.seq), kind: r.kind, ref: r.ref, createdAt: new Date(r.created_at), account: r.account, tokenId: r.asset, amount: BigInt(r.amount) }));
}

export interface TokenMarket {
  marketId: string;
  tokenId1: string;
  tokenId2: string;
  payout: { payout1: number; payout2: number; den: number } | null;
}

/** The markets of these tokens, with the ledger's payout vector once resolved. */
export async function findTokenMarkets(db: Db, tokenIds: string[]): Promise<TokenMarket[]> {
  if (tokenIds.length === 0) return [];
  const { rows } = await sql<{ id: string; token_id1: string; token_id2: string; payout1: number | null; payout2: number | null; payout_den: number | null }>`
    SELECT m.id, m.token_id1, m.token_id2, l.payout1, l.payout2, l.payout_den
    FROM markets m LEFT JOIN ledger_markets l ON l.condition_id = m.condition_id
    WHERE m.token_id1 = ANY(${tokenIds}::text[]) OR m.token_id2 = ANY(${tokenIds}::text[])`.execute(db);
  return rows.map((r) => ({
    marketId: r.id,
    tokenId1: r.token_id1,
    tokenId2: r.token_id2,
    payout: r.payout_den === null ? null : { payout1: r.payout1!, payout2: r.payout2!, den: r.payout_den },
  }));
}

export interface TradeTerms {
  id: string;
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  tokenId: string;
  side: number;
  priceMicros: bigint;
  /** The maker's own price (the complement for a MINT or MERGE maker). */
  makerPriceMicros: bigint;
  takerWallet: string;
  makerWallet: string;
  takerFee: bigint;
  makerFee: bigint;
}

export async function findTradeTerms(db: Db, tradeIds: string[]): Promise<TradeTerms[]> {
  if (tradeIds.length === 0) return [];
  const rows = await db.selectFrom('trades')
    .select(['id', 'kind', 'token_id', 'side', 'price_micros', 'maker_price_micros', 'taker_wallet', 'maker_wallet', 'taker_fee_base_units', 'maker_fee_base_units'])
    .where('id', '=', sql<string>`ANY(${tradeIds}::uuid[])`)
    .execute();
  return rows.map((r) => ({
    id: r.id, kind: r.kind, tokenId: r.token_id, side: r.side, priceMicros: BigInt(r.price_micros), makerPriceMicros: BigInt(r.maker_price_micros),
    takerWallet: r.taker_wallet, makerWallet: r.maker_wallet, takerFee: BigInt(r.taker_fee_base_units), makerFee: BigInt(r.maker_fee_base_units),
  }));
}

/** Which token of which market a position holds, beside its numbers (core/positions). */
export interface PositionKey {
  tokenId: string;
  marketId: string;
  outcomeIndex: 0 | 1;
}

export interface PositionRow extends PositionKey, PositionState {
  account: string;
  lastSeq: bigint;
  updatedAt: Date;
}

const POSITION_COLUMNS = ['account', 'token_id', 'market_id', 'outcome_index', 'amount', 'cost_basis', 'realized_pnl', 'acquired_amount', 'acquired_cost',
  'disposed_amount', 'disposed_proceeds', 'last_seq', 'updated_at'] as const;

type StoredPosition = { account: string; token_id: string; market_id: string; outcome_index: number; amount: string; cost_basis: string; realized_pnl: string;
  acquired_amount: string; acquired_cost: string; disposed_amount: string; disposed_proceeds: string; last_seq: bigint; updated_at: Date };

export function toPositionRow(r: StoredPosition): PositionRow {
  return {
    account: r.account, tokenId: r.token_id, marketId: r.market_id, outcomeIndex: r.outcome_index === 1 ? 1 : 0,
    amount: BigInt(r.amount), costBasis: BigInt(r.cost_basis), realizedPnl: BigInt(r.realized_pnl),
    acquiredAmount: BigInt(r.acquired_amount), acquiredCost: BigInt(r.acquired_cost),
    disposedAmount: BigInt(r.disposed_amount), disposedProceeds: BigInt(r.disposed_proceeds),
    lastSeq: BigInt(r.last_seq), updatedAt: new Date(r.updated_at),
  };
}

/** The stored positions of these (account, token) pairs. */
export async function findPositions(db: Db, keys: Array<{ account: string; tokenId: string }>): Promise<PositionRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<StoredPosition>`
    SELECT p.* FROM positions p
    JOIN unnest(${keys.map((k) => k.account)}::text[], ${keys.map((k) => k.tokenId)}::text[]) AS k(account, token_id)
      ON p.account = k.account AND p.token_id = k.token_id`.execute(db);
  return rows.map(toPositionRow);
}

export async function upsertPositions(db: Db, rows: PositionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: PositionRow) => T) => rows.map(f);
  const text = (f: (r: PositionRow) => bigint) => rows.map((r) => f(r).toString());
  await sql`
    INSERT INTO positions (${sql.raw(POSITION_COLUMNS.join(', '))})
    SELECT * FROM unnest(${col((r) => r.account)}::text[], ${col((r) => r.tokenId)}::text[], ${col((r) => r.marketId)}::uuid[], ${col((r) => r.outcomeIndex)}::smallint[],
      ${text((r) => r.amount)}::numeric[], ${text((r) => r.costBasis)}::numeric[], ${text((r) => r.realizedPnl)}::numeric[],
      ${text((r) => r.acquiredAmount)}::numeric[], ${text((r) => r.acquiredCost)}::numeric[], ${text((r) => r.disposedAmount)}::numeric[],
      ${text((r) => r.disposedProceeds)}::numeric[], ${text((r) => r.lastSeq)}::bigint[], ${col((r) => r.updatedAt.toISOString())}::timestamptz[])
    ON CONFLICT (account, token_id) DO UPDATE SET
      amount = excluded.amount, cost_basis = excluded.cost_basis, realized_pnl = excluded.realized_pnl,
      acquired_amount = excluded.acquired_amount, acquired_cost = excluded.acquired_cost,
      disposed_amount = excluded.disposed_amount, disposed_proceeds = excluded.disposed_proceeds,
      last_seq = excluded.last_seq, updated_at = excluded.updated_at`.execute(db);
}

/** Adds realised P&L to accounts' hourly buckets. */
export async function addPnl(db: Db, rows: Array<{ account: string; hour: Date; realizedPnl: bigint }>): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO pnl_series (account, hour, realized_pnl)
    SELECT * FROM unnest(${rows.map((r) => r.account)}::text[], ${rows.map((r) => r.hour.toISOString())}::timestamptz[], ${rows.map((r) => r.realizedPnl.toString())}::numeric[])
    ON CONFLICT (account, hour) DO UPDATE SET realized_pnl = pnl_series.realized_pnl + excluded.realized_pnl`.execute(db);
}

/** A position of an account, with its market's resolution (what its price needs). */
export interface AccountPosition extends PositionKey, PositionState {
  /** The market's `marketResolvedTo`: "" until resolved. */
  resolvedTo: string;
}

export interface PositionFilter {
  account: string;
  /** held: amount above zero; closed: nothing left after holding. */
  state?: 'held' | 'closed';
  status?: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  marketIds?: string[];
  eventId?: string;
  /** Case-insensitive partial match on the market's name. */
  title?: string;
}

/**
 * Every position of an account matching the filter, at most `limit`, most recently changed first.
 * Only the numbers: a heavy account's thousands of rows stay narrow, and the descriptive fields of
 * the few that are shown come from `findPositionMarkets`.
 */
export async function listAccountPositions(db: Db, filter: PositionFilter, limit: number): Promise<AccountPosition[]> {
  let query = db.selectFrom('positions as p')
    .innerJoin('markets as m', 'm.id', 'p.market_id')
    .select(['p.token_id', 'p.market_id', 'p.outcome_index', 'p.amount', 'p.cost_basis', 'p.realized_pnl', 'p.acquired_amount', 'p.acquired_cost',
      'p.disposed_amount', 'p.disposed_proceeds', 'm.market_resolved_to'])
    .where('p.account', '=', filter.account);
  if (filter.state === 'held') query = query.where(sql<boolean>`p.amount > 0`);
  if (filter.state === 'closed') query = query.where(sql<boolean>`p.amount = 0`);
  if (filter.status) query = query.where('m.status', '=', filter.status);
  if (filter.marketIds) query = query.where('p.market_id', 'in', filter.marketIds.length ? filter.marketIds : ['00000000-0000-0000-0000-000000000000']);
  if (filter.eventId) query = query.where('m.event_id', '=', filter.eventId);
  if (filter.title) query = query.where(sql<boolean>`m.name ILIKE ${`%${escapeLike(filter.title)}%`}`);
  const rows = await query.orderBy('p.updated_at', 'desc').orderBy('p.token_id').limit(limit).execute();
  return rows.map((r) => ({
    tokenId: r.token_id, marketId: r.market_id, outcomeIndex: r.outcome_index === 1 ? 1 : 0,
    amount: BigInt(r.amount), costBasis: BigInt(r.cost_basis), realizedPnl: BigInt(r.realized_pnl),
    acquiredAmount: BigInt(r.acquired_amount), acquiredCost: BigInt(r.acquired_cost),
    disposedAmount: BigInt(r.disposed_amount), disposedProceeds: BigInt(r.disposed_proceeds),
    resolvedTo: r.market_resolved_to,
  }));
}

/** What the portfolio and profile shapes show of a position's market, event and oracle question. */
export interface PositionMarket {
  marketName: string;
  marketSlug: string;
  marketIcon: string;
  marketStatus: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  outcome1: string;
  outcome2: string;
  conditionId: string | null;
  isDisputed: boolean;
  isSettled: boolean;
  orderFeeRateBps: number;
  passiveOrderFeeRateBps: number;
  eventId: string;
  eventName: string;
  eventIcon: string;
  eventSingle: boolean;
  seriesLayout: boolean;
  livenessSeconds: number;
  proposedOutcome: 'YES' | 'NO' | 'TIE' | null;
  proposedAt: Date | null;
}

export async function findPositionMarkets(db: Db, marketIds: string[]): Promise<Map<string, PositionMarket>> {
  if (marketIds.length === 0) return new Map();
  const rows = await db.selectFrom('markets as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .leftJoin('oracle_questions as q', 'q.market_id', 'm.id')
    .select([
      'm.id', 'm.name', 'm.slug', 'm.icon', 'm.status', 'm.outcome1', 'm.outcome2', 'm.condition_id', 'm.is_disputed', 'm.is_settled',
      'm.order_fee_rate_bps', 'm.passive_order_fee_rate_bps', 'e.id as event_id', 'e.name as event_name', 'e.icon as event_icon',
      'e.single as event_single', 'e.series_layout', 'e.liveness_seconds', 'q.proposed_outcome', 'q.proposed_at',
    ])
    .where('m.id', 'in', [...new Set(marketIds)])
    .execute();
  return new Map(rows.map((r) => [r.id, {
    marketName: r.name, marketSlug: r.slug, marketIcon: r.icon, marketStatus: r.status, outcome1: r.outcome1, outcome2: r.outcome2,
    conditionId: r.condition_id, isDisputed: r.is_disputed, isSettled: r.is_settled,
    orderFeeRateBps: r.order_fee_rate_bps, passiveOrderFeeRateBps: r.passive_order_fee_rate_bps,
    eventId: r.event_id, eventName: r.event_name, eventIcon: r.event_icon, eventSingle: r.event_single, seriesLayout: r.series_layout,
    livenessSeconds: r.liveness_seconds, proposedOutcome: r.proposed_outcome, proposedAt: r.proposed_at,
  }]));
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The hourly realised P&L of an account from `since` on (all when null), oldest first. */
export async function listPnlSeries(db: Db, account: string, since: Date | null): Promise<Array<{ hour: Date; realizedPnl: bigint }>> {
  let query = db.selectFrom('pnl_series').select(['hour', 'realized_pnl']).where('account', '=', account);
  if (since) query = query.where('hour', '>=', since);
  const rows = await query.orderBy('hour').execute();
  return rows.map((r) => ({ hour: new Date(r.hour), realizedPnl: BigInt(r.realized_pnl) }));
}

/** The realised P&L of an account before `before`. */
export async function sumPnlBefore(db: Db, account: string, before: Date): Promise<bigint> {
  const row = await db.selectFrom('pnl_series').select(sql<string>`coalesce(sum(realized_pnl), 0)::text`.as('total'))
    .where('account', '=', account).where('hour', '<', before).executeTakeFirstOrThrow();
  return BigInt(row.total);
}

/** Last trade price (millionths, of the trade's own token) of these markets, from the trades table. */
export async function latestTrades(db: Db, marketIds: string[]): Promise<Array<{ marketId: string; tokenId: string; priceMicros: bigint }>> {
  if (marketIds.length === 0) return [];
  const { rows } = await sql<{ market_id: string; token_id: string; price_micros: bigint }>`
    SELECT m.id AS market_id, t.token_id, t.price_micros FROM unnest(${marketIds}::uuid[]) AS m(id)
    CROSS JOIN LATERAL (
      -- The newest match time first (index trades_by_market_time), then the last of that instant by seq.
      SELECT token_id, price_micros FROM trades
      WHERE market_id = m.id AND status <> 'FAILED'
        AND matched_at = (SELECT max(matched_at) FROM trades WHERE market_id = m.id AND status <> 'FAILED')
      ORDER BY seq DESC LIMIT 1) t`.execute(db);
  return rows.map((r) => ({ marketId: r.market_id, tokenId: r.token_id, priceMicros: BigInt(r.price_micros) }));
}

/**
 * Distinct BUY orders of a wallet with at least one CONFIRMED fill (PublicProfileSummary.predictions):
 * a taker's BUY, a MINT's maker (a buyer) or a TRANSFER's maker opposite a taker's SELL.
 */
export async function countConfirmedBuyOrders(db: Db, wallet: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(DISTINCT order_id)::text AS n FROM (
      SELECT taker_order_id AS order_id FROM trades WHERE taker_wallet = ${wallet} AND status = 'CONFIRMED' AND side = 0
      UNION ALL
      SELECT maker_order_id FROM trades WHERE maker_wallet = ${wallet} AND status = 'CONFIRMED' AND maker_side = 0
    ) o`.execute(db);
  return Number(rows[0]!.n);
}

/** Event artwork by event id. */
export async function findEventIcons(db: Db, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.selectFrom('events').select(['id', 'icon']).where('id', 'in', eventIds).execute();
  return new Map(rows.map((r) => [r.id, r.icon]));
}
