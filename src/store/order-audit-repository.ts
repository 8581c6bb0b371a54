import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';

/**
 * Read-only checks of the orders and trades tables against each other and against the ledger, for
 * the exchange's audit (src/engine/order-audit.ts). Each query names the rows that break a rule,
 * at most `limit` of them, with the number of all such rows; a store that holds up names none.
 */
export interface Breaches {
  total: number;
  rows: Array<{ id: string; problem: string }>;
}

/**
 * Orders whose matched size is not the sum of their fills in trades (as taker and as maker), or
 * whose status does not fit their sizes: EXECUTED exactly when fully matched, PENDING and REJECTED
 * unmatched, EXECUTING partly matched, CANCELLED and EXPIRED short of full.
 */
export function ordersAgainstFills(db: Db, limit: number): Promise<Breaches> {
  return breaches(db, limit, sql`
    WITH fills AS (
      SELECT order_id, sum(size) AS filled FROM (
        SELECT taker_order_id AS order_id, size_base_units AS size FROM trades
        UNION ALL SELECT maker_order_id, size_base_units FROM trades) f
      GROUP BY order_id)
    SELECT o.id::text AS id, CASE
      WHEN o.matched_base_units < 0 OR o.matched_base_units > o.size_base_units
        THEN 'matched ' || o.matched_base_units || ' outside 0..' || o.size_base_units
      WHEN o.matched_base_units <> coalesce(f.filled, 0)
        THEN 'matched ' || o.matched_base_units || ', its trades fill ' || coalesce(f.filled, 0)
      WHEN (o.status = 'EXECUTED') <> (o.matched_base_units = o.size_base_units)
        THEN o.status || ' with ' || o.matched_base_units || ' of ' || o.size_base_units || ' matched'
      WHEN (o.status IN ('PENDING', 'REJECTED') AND o.matched_base_units <> 0) OR (o.status = 'EXECUTING' AND o.matched_base_units = 0)
        THEN o.status || ' with ' || o.matched_base_units || ' matched'
      WHEN o.status NOT IN ('PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'EXPIRED', 'REJECTED')
        THEN 'unknown status ' || o.status
    END AS problem
    FROM orders o LEFT JOIN fills f ON f.order_id = o.id`);
}

/**
 * Trades whose orders are missing, whose parties (user, wallet, token, side) differ from their
 * orders', whose size is not positive, or that gave either party a worse price than its limit.
 */
export function tradesAgainstOrders(db: Db, limit: number): Promise<Breaches> {
  return breaches(db, limit, sql`
    SELECT t.id::text AS id, CASE
      WHEN tk.id IS NULL THEN 'taker order ' || t.taker_order_id || ' is missing'
      WHEN mk.id IS NULL THEN 'maker order ' || t.maker_order_id || ' is missing'
      WHEN t.size_base_units <= 0 THEN 'size ' || t.size_base_units
      WHEN tk.user_id <> t.taker_user_id OR tk.account <> t.taker_wallet OR tk.token_id <> t.token_id OR tk.side <> t.side
        THEN 'taker fields differ from order ' || tk.id
      WHEN mk.user_id <> t.maker_user_id OR mk.account <> t.maker_wallet OR mk.token_id <> t.maker_token_id OR mk.side <> t.maker_side
        THEN 'maker fields differ from order ' || mk.id
      WHEN (tk.side = 0 AND t.price_micros > tk.price_micros) OR (tk.side = 1 AND t.price_micros < tk.price_micros)
        THEN 'taker price ' || t.price_micros || ' worse than its limit ' || tk.price_micros
      WHEN (mk.side = 0 AND t.maker_price_micros > mk.price_micros) OR (mk.side = 1 AND t.maker_price_micros < mk.price_micros)
        THEN 'maker price ' || t.maker_price_micros || ' worse than its limit ' || mk.price_micros
    END AS problem
    FROM trades t
    LEFT JOIN orders tk ON tk.id = t.taker_order_id
    LEFT JOIN orders mk ON mk.id = t.maker_order_id`);
}

/**
 * Trades settled other than exactly once: a MINED or CONFIRMED trade has one ledger transaction
 * (kind TRADE_*, ref its id) carrying its txHash, a trade not mined has none, and every such
 * ledger transaction belongs to a trade. `onChain`: a trade's txHash is the chain's transaction,
 * and a MATCHED trade may keep the one ledger transaction of its mining before a reorg.
 */
export function tradesAgainstLedger(db: Db, limit: number, onChain: boolean): Promise<Breaches> {
  // On a chain a trade's txHash is the chain's transaction, and a trade a reorg took back to MATCHED keeps its ledger transaction.
  const hashMismatch = onChain ? sql`false` : sql`s.tx_hash IS DISTINCT FROM t.tx_hash`;
  const settledStatuses = onChain ? sql`('MINED', 'CONFIRMED', 'MATCHED')` : sql`('MINED', 'CONFIRMED')`;
  return breaches(db, limit, sql`
    WITH settled AS (
      SELECT ref, count(*) AS n, min(tx_hash) AS tx_hash FROM ledger_transactions
      WHERE kind LIKE 'TRADE\\_%' GROUP BY ref)
    SELECT coalesce(t.id::text, s.ref) AS id, CASE
      WHEN t.id IS NULL THEN 'ledger transaction ' || s.tx_hash || ' settles no trade'
      WHEN t.status IN ('MINED', 'CONFIRMED') AND s.n IS NULL THEN t.status || ' without a ledger transaction'
      WHEN t.status IN ('MINED', 'CONFIRMED') AND (s.n <> 1 OR ${hashMismatch})
        THEN t.status || ' with txHash ' || coalesce(t.tx_hash, 'null') || ', ledger ' || s.n || ' transaction(s) from ' || s.tx_hash
      WHEN t.status = 'MATCHED' AND s.n > 1 THEN 'MATCHED with ' || s.n || ' ledger transactions'
      WHEN t.status NOT IN ${settledStatuses} AND (s.n IS NOT NULL OR t.tx_hash IS NOT NULL)
        THEN t.status || ' but settled in ' || coalesce(s.tx_hash, t.tx_hash)
    END AS problem
    FROM trades t FULL JOIN settled s ON s.ref = t.id::text`);
}

/** Counts of the rows the checks covered, for the audit's summary. */
export async function countOrdersAndTrades(db: Db): Promise<{ orders: number; trades: number }> {
  const { rows } = await sql<{ orders: string; trades: string }>`
    SELECT (SELECT count(*) FROM orders)::text AS orders, (SELECT count(*) FROM trades)::text AS trades`.execute(db);
  return { orders: Number(rows[0]!.orders), trades: Number(rows[0]!.trades) };
}

/**
 * Markets whose kept volumes (migration 0027: all-time, and by UTC hour) are not the taker
 * notional of their trades that are not FAILED.
 */
export function volumesAgainstTrades(db: Db, limit: number): Promise<Breaches> {
  return breaches(db, limit, sql`
    WITH traded AS (
      SELECT market_id, date_bin('1 hour', matched_at, to_timestamp(0)) AS hour, sum(notional_base_units) AS volume
      FROM trades WHERE status <> 'FAILED' GROUP BY 1, 2),
    hours AS (
      SELECT coalesce(t.market_id, h.market_id) AS market_id, coalesce(t.hour, h.hour) AS hour, coalesce(t.volume, 0) AS traded, coalesce(h.volume_base_units, 0) AS kept
      FROM traded t FULL JOIN market_volume_hours h ON h.market_id = t.market_id AND h.hour = t.hour),
    totals AS (
      SELECT coalesce(t.market_id, v.market_id) AS market_id, coalesce(t.volume, 0) AS traded, coalesce(v.volume_base_units, 0) AS kept
      FROM (SELECT market_id, sum(volume) AS volume FROM traded GROUP BY 1) t FULL JOIN market_volume_totals v ON v.market_id = t.market_id)
    SELECT market_id::text || ' ' || to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS id, 'hour volume kept ' || kept || ', its trades ' || traded AS problem
    FROM hours WHERE kept <> traded
    UNION ALL
    SELECT market_id::text, 'all-time volume kept ' || kept || ', its trades ' || traded FROM totals WHERE kept <> traded`);
}

async function breaches(db: Db, limit: number, checked: RawBuilder<unknown>): Promise<Breaches> {
  const { rows } = await sql<{ id: string; problem: string; total: string }>`
    SELECT id, problem, count(*) OVER ()::text AS total
    FROM (${checked}) checked WHERE problem IS NOT NULL ORDER BY id LIMIT ${limit}`.execute(db);
  return { total: Number(rows[0]?.total ?? 0), rows: rows.map(({ id, problem }) => ({ id, problem })) };
}
