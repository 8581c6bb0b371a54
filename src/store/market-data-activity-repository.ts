import { sql, type RawBuilder } from 'kysely';
import { PRICE_ONE } from '../core/money.ts';
import type { Db } from './database.ts';

/**
 * Activity rows (SPEC.md section 2 "Activity"): one row per party of a recorded trade (its own side,
 * token, price and fee) and one per split, merge or redeem in the ledger journal. Trades count once
 * their ledger transaction exists (MINED or CONFIRMED, never FAILED), like the journal's own rows,
 * so `hash` is always a real transaction hash: a split's, merge's or redeem's is the chain's transaction
 * when a chain made it first (`chain_tx_hash`), else the ledger's.
 *
 * The three sources are a UNION ALL; every filter, the keyset and a LIMIT are pushed into each
 * branch, so a page reads at most `offset + limit + 1` rows per branch instead of sorting everything.
 */
export type ActivityType = 'BUY' | 'SELL' | 'SPLIT' | 'MERGE' | 'REDEEM';
export type ActivitySortKey = 'timestamp' | 'amount';
export type SortOrder = 'ASC' | 'DESC';

export interface ActivityFilter {
  marketId?: string | undefined;
  /** A lowercase proxy wallet: only this user's rows. */
  account?: string | undefined;
  /** Only rows of these types (all when undefined). */
  types?: readonly ActivityType[] | undefined;
  /** Case-insensitive partial match on the market's name. */
  marketName?: string | undefined;
  /** Case-insensitive partial match on the market's name or slug, or its event's name. */
  term?: string | undefined;
  /** Rows at or after this Unix second. */
  fromSeconds?: number | undefined;
  /** Rows at or before this Unix second (the whole second, as `timestamp` shows it). */
  toSeconds?: number | undefined;
}

/** Where a keyset page starts: strictly after the row with this sort value and key. */
export interface ActivityKeyset {
  /** Epoch microseconds (timestamp sort) or base units (amount sort), as decimal digits. */
  value: string;
  key: string;
}

export interface ActivityPageQuery {
  sort: ActivitySortKey;
  order: SortOrder;
  offset: number;
  /** Rows to return; the query reads one more so the caller can tell whether more follow. */
  limit: number;
  after?: ActivityKeyset | undefined;
}

export interface ActivityRow {
  type: ActivityType;
  account: string;
  /** The party's token (BUY and SELL rows); null for splits, merges and redeems, which move both. */
  token_id: string | null;
  /** The party's price in millionths; for a redeem, its payout per token burned. */
  price_micros: string;
  amount_base_units: string;
  fee_base_units: string;
  hash: string;
  at_us: string;
  /** The keyset of this row for the next page. */
  cursor_value: string;
  row_key: string;
  market_id: string;
  market_name: string;
  market_slug: string;
  /** The market's description, else its event's. */
  market_description: string;
  market_icon: string;
  market_created_at: Date;
  market_created_by: string;
  market_updated_at: Date;
  start_date: Date;
  end_date: Date | null;
  protected: boolean;
  token_id1: string;
  token_id2: string;
  condition_id: string;
  outcome1: string;
  outcome2: string;
  is_resolved: boolean;
  event_id: string;
  event_name: string;
  event_single: boolean;
}

const TRADE_TYPES: readonly ActivityType[] = ['BUY', 'SELL'];
const LEDGER_TYPES: readonly ActivityType[] = ['SPLIT', 'MERGE', 'REDEEM'];
const wanted = (f: ActivityFilter, of: readonly ActivityType[]) => of.filter((t) => f.types === undefined || f.types.includes(t));

/** `%term%` with LIKE's wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const cursorTime = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;
const secondsTime = (seconds: number) => sql`(timestamptz 'epoch' + ${seconds}::bigint * interval '1 second')`;

/** The filters every branch applies the same way, given the branch's market alias `m` and its time column. */
function commonConditions(f: ActivityFilter, at: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  if (f.marketId !== undefined) conditions.push(sql`m.id = ${f.marketId}::uuid`);
  // An empty filter is no filter (an empty pattern would match every market anyway).
  if (f.marketName) conditions.push(sql`m.name ILIKE ${containing(f.marketName)}`);
  if (f.term) {
    const like = containing(f.term);
    conditions.push(sql`(m.name ILIKE ${like} OR m.slug ILIKE ${like} OR EXISTS (SELECT 1 FROM events te WHERE te.id = m.event_id AND te.name ILIKE ${like}))`);
  }
  if (f.fromSeconds !== undefined) conditions.push(sql`${at} >= ${secondsTime(f.fromSeconds)}`);
  if (f.toSeconds !== undefined) conditions.push(sql`${at} < ${secondsTime(f.toSeconds + 1)}`);
  return conditions;
}

/** The keyset predicate and ordering of one branch, given its sort and key expressions. */
function keysetParts(page: ActivityPageQuery, sortExpr: RawBuilder<unknown>, keyExpr: RawBuilder<unknown>) {
  const dir = sql.raw(page.order);
  const conditions: RawBuilder<unknown>[] = [];
  if (page.after) {
    const value = page.sort === 'timestamp' ? cursorTime(page.after.value) : sql`${page.after.value}::numeric`;
    const cmp = sql.raw(page.order === 'DESC' ? '<' : '>');
    const inclusive = sql.raw(page.order === 'DESC' ? '<=' : '>=');
    // The row comparison is exact; the plain bound beside it lets an index on the sort column skip ahead.
    conditions.push(sql`(${sortExpr}, ${keyExpr}) ${cmp} (${value}, ${page.after.key} COLLATE "C")`, sql`${sortExpr} ${inclusive} ${value}`);
  }
  return { conditions, orderBy: sql`ORDER BY ${sortExpr} ${dir}, ${keyExpr} ${dir}` };
}

const whereAll = (conditions: RawBuilder<unknown>[]) => (conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`);

/** The BUY/SELL rows of one party of each trade, each with its own side, token and price as the trade recorded them. */
function tradeBranch(party: 'taker' | 'maker', f: ActivityFilter, page: ActivityPageQuery, rows: number): RawBuilder<unknown> | null {
  const types = wanted(f, TRADE_TYPES);
  if (types.length === 0) return null;
  const taker = party === 'taker';
  const side = taker ? sql`t.side` : sql`t.maker_side`;
  const token = taker ? sql`t.token_id` : sql`t.maker_token_id`;
  const price = taker ? sql`t.price_micros` : sql`t.maker_price_micros`;
  const wallet = sql.ref(`t.${party}_wallet`);
  const key = sql`(t.id::text || ${taker ? ':t' : ':m'}) COLLATE "C"`;
  const sortExpr = page.sort === 'timestamp' ? sql`t.matched_at` : sql`t.size_base_units::numeric`;
  const { conditions, orderBy } = keysetParts(page, sortExpr, key);
  conditions.push(sql`t.tx_hash IS NOT NULL`, sql`t.status <> 'FAILED'`);
  if (types.length === 1) conditions.push(sql`${side} = ${types[0] === 'BUY' ? 0 : 1}`);
  if (f.account !== undefined) conditions.push(sql`${wallet} = ${f.account}`);
  conditions.push(...commonConditions(f, sql`t.matched_at`));
  return sql`(SELECT t.market_id, ${wallet} AS account, CASE WHEN ${side} = 0 THEN 'BUY' ELSE 'SELL' END AS type, ${token} AS token_id,
      (${price})::text AS price_micros, t.size_base_units::numeric AS amount, ${sql.ref(`t.${party}_fee_base_units`)}::numeric AS fee,
      t.tx_hash AS hash, t.matched_at AS at, ${sortExpr} AS sort_value, ${key} AS row_key
    FROM trades t JOIN markets m ON m.id = t.market_id
    ${whereAll(conditions)} ${orderBy} LIMIT ${rows})`;
}

/**
 * The account that holds a market's collateral, as settlement/accounts.ts `marketLockAccount` names
 * it (the store cannot import settlement/; the batch redeem of test/api/portfolio-user-activity.test.ts
 * prices nothing if the two differ).
 */
const MARKET_LOCK_PREFIX = 'market-lock:';

/**
 * The split, merge and redeem rows of the journal: per transaction, the tokens its holder minted or
 * burned (a split mints `amount` of each outcome, so half the sum). A redeem's price is what it
 * paid per token burned: what left that market's collateral lock in the transaction, since a batch
 * redeem pays several markets in one transaction and its payout legs do not say which market each is for.
 */
function ledgerBranch(f: ActivityFilter, page: ActivityPageQuery, rows: number): RawBuilder<unknown> | null {
  const types = wanted(f, LEDGER_TYPES);
  if (types.length === 0) return null;
  const inner: RawBuilder<unknown>[] = [sql`le.reason IN ('MINT', 'BURN')`, sql`lt.kind IN (${sql.join(types)})`];
  if (f.account !== undefined) inner.push(sql`le.account = ${f.account}`);
  inner.push(...commonConditions(f, sql`lt.created_at`));
  const sortExpr = page.sort === 'timestamp' ? sql`l.at` : sql`l.amount`;
  // A batch redeem or merge is one transaction over several markets: the hash alone is not a row's key.
  const key = sql`(l.hash || ':' || l.market_id::text) COLLATE "C"`;
  const { conditions, orderBy } = keysetParts(page, sortExpr, key);
  return sql`(SELECT l.market_id, l.account, l.type, NULL::text AS token_id,
      (CASE WHEN l.type = 'REDEEM'
        THEN div(coalesce((SELECT -sum(p.amount) FROM ledger_entries p
          WHERE p.tx_seq = l.seq AND p.reason = 'REDEEM_LOCK' AND p.account = ${MARKET_LOCK_PREFIX} || l.condition_id), 0) * ${sql.lit(PRICE_ONE)}, l.amount)
        ELSE ${sql.lit(PRICE_ONE)} END)::text AS price_micros,
      l.amount, 0::numeric AS fee, l.hash, l.at, ${sortExpr} AS sort_value, ${key} AS row_key
    FROM (
      SELECT m.id AS market_id, m.condition_id, le.account, lt.kind AS type, coalesce(lt.chain_tx_hash, lt.tx_hash) AS hash, lt.created_at AS at, lt.seq,
        CASE WHEN lt.kind = 'REDEEM' THEN sum(abs(le.amount)) ELSE div(sum(abs(le.amount)), 2) END AS amount
      FROM ledger_entries le
      JOIN ledger_transactions lt ON lt.seq = le.tx_seq
      JOIN markets m ON le.asset IN (m.token_id1, m.token_id2)
      WHERE ${sql.join(inner, sql` AND `)}
      GROUP BY m.id, m.condition_id, le.account, lt.kind, lt.chain_tx_hash, lt.tx_hash, lt.created_at, lt.seq
    ) l
    ${whereAll(conditions)} ${orderBy} LIMIT ${rows})`;
}

/** The branches the filter can match, UNION ALL'd; null when a `types` filter excludes them all. */
function union(f: ActivityFilter, page: ActivityPageQuery, rowsPerBranch: number): RawBuilder<unknown> | null {
  const branches = [tradeBranch('taker', f, page, rowsPerBranch), tradeBranch('maker', f, page, rowsPerBranch), ledgerBranch(f, page, rowsPerBranch)]
    .filter((b): b is RawBuilder<unknown> => b !== null);
  return branches.length === 0 ? null : sql.join(branches, sql` UNION ALL `);
}

/** One page of activity rows with their market and event, `limit + 1` rows at most. */
export async function listActivity(db: Db, f: ActivityFilter, page: ActivityPageQuery): Promise<ActivityRow[]> {
  const rows = union(f, page, page.offset + page.limit + 1);
  if (rows === null) return [];
  const dir = sql.raw(page.order);
  const cursorValue = page.sort === 'timestamp' ? sql`(extract(epoch from r.sort_value) * 1000000)::bigint::text` : sql`r.sort_value::text`;
  const result = await sql<ActivityRow>`
    SELECT r.type, r.account, r.token_id, r.price_micros, r.amount::text AS amount_base_units, r.fee::text AS fee_base_units, r.hash,
      (extract(epoch from r.at) * 1000000)::bigint::text AS at_us, ${cursorValue} AS cursor_value, r.row_key,
      m.id AS market_id, m.name AS market_name, m.slug AS market_slug, coalesce(m.description, e.description) AS market_description, m.icon AS market_icon,
      m.created_at AS market_created_at, m.created_by AS market_created_by, m.updated_at AS market_updated_at,
      coalesce(m.start_date, e.start_date) AS start_date, coalesce(m.end_date, e.end_date) AS end_date, e.protected,
      m.token_id1, m.token_id2, m.condition_id, m.outcome1, m.outcome2, m.is_resolved,
      e.id AS event_id, e.name AS event_name, e.single AS event_single
    FROM (
      -- The page is cut before the market and event are joined, so a deep offset skips rows cheaply.
      SELECT * FROM (${rows}) u ORDER BY u.sort_value ${dir}, u.row_key COLLATE "C" ${dir} OFFSET ${page.offset} LIMIT ${page.limit + 1}
    ) r
    JOIN markets m ON m.id = r.market_id
    JOIN events e ON e.id = m.event_id
    ORDER BY r.sort_value ${dir}, r.row_key COLLATE "C" ${dir}`.execute(db);
  return result.rows;
}

/** How many rows match, counting at most `cap` (the caller flags a capped total). */
export async function countActivity(db: Db, f: ActivityFilter, cap: number): Promise<number> {
  const page: ActivityPageQuery = { sort: 'timestamp', order: 'DESC', offset: 0, limit: cap };
  const rows = union(f, page, cap);
  if (rows === null) return 0;
  const result = await sql<{ n: string }>`SELECT count(*)::text AS n FROM (SELECT 1 FROM (${rows}) r LIMIT ${cap}) c`.execute(db);
  return Number(result.rows[0]!.n);
}

/** Distinct markets where the wallet was the taker or the maker of a trade that has not FAILED. */
export async function countTradedMarkets(db: Db, wallet: string): Promise<number> {
  const result = await sql<{ n: string }>`
    SELECT count(DISTINCT p.market_id)::text AS n FROM (
      SELECT market_id FROM trades WHERE taker_wallet = ${wallet} AND status <> 'FAILED'
      UNION ALL
      SELECT market_id FROM trades WHERE maker_wallet = ${wallet} AND status <> 'FAILED'
    ) p`.execute(db);
  return Number(result.rows[0]!.n);
}
