import { sql, type RawBuilder } from 'kysely';
import type { OracleState } from '../core/oracle/state-machine.ts';
import { columnArrays } from './column-arrays.ts';
import { updateEvent } from './catalogue-events-repository.ts';
import { updateMarket } from './catalogue-markets-repository.ts';
import type { Db } from './database.ts';
import { insertRedemptions } from './oracle-redemptions-repository.ts';
import { saveQuestion } from './oracle-questions-repository.ts';
import { ORDER_COLUMN_TYPES, type OrderRow } from './orders-repository.ts';
import { prepared } from './prepared-statements.ts';
import type { OrderStatus } from './schema.ts';
import { TRADE_COLUMN_TYPES, type TradeRow } from './trades-repository.ts';

/**
 * What a projection of the engine's journal records `first` to `last` writes: each row as the
 * records left it (src/engine/projection/merged-changes.ts merges them).
 */
export interface ProjectionWrites {
  first: bigint;
  last: bigint;
  /** Orders the records accepted, whole. */
  newOrders: ReadonlyMap<string, OrderRow>;
  /** Orders accepted before whose state the records changed. */
  orders: ReadonlyMap<string, { id: string; bookSeq: bigint; matchedBaseUnits: bigint; status: OrderStatus; delayedUntilMs: number | null; updatedAtMs: number }>;
  /** Trades made or moved on (inserted, or updated when the tables have them). */
  trades: ReadonlyMap<string, TradeRow>;
  balances: ReadonlyMap<string, { account: string; asset: string; balance: bigint; locked: bigint }>;
  ledgerTxs: readonly {
    seq: bigint; txHash: string; kind: string; ref: string; createdAtMs: number;
    entries: readonly { account: string; asset: string; amount: bigint; reason: string }[];
    /** Set when a block of the same projection sealed it. */
    blockNumber: bigint | null;
    chainTxHash: string | null;
  }[];
  /** Transactions the tables hold already that one of the blocks sealed. */
  sealedEarlier: readonly { seq: bigint; blockNumber: bigint }[];
  blocks: readonly { number: bigint; hash: string; parentHash: string; sealedAtMs: number; txs: readonly unknown[] }[];
  ledgerMarkets: ReadonlyMap<string, { conditionId: string; tokenId1: string; tokenId2: string; payout: { payout1: number; payout2: number; den: number } | null; resolvedAtMs: number | null }>;
  questions: ReadonlyMap<string, { state: OracleState; atMs: number }>;
  resolutions: readonly { marketId: string; outcome: 'YES' | 'NO' | 'TIE'; atMs: number }[];
  events: ReadonlyMap<string, { eventId: string; winningMarketId?: string; resolved?: boolean; atMs: number }>;
  redemptions: readonly { id: string; userId: string; account: string; marketId: string; txHash: string; burned: [bigint, bigint]; payoutBaseUnits: bigint; atMs: number }[];
}

/** The SQLSTATE of a projection refused because the tables already hold its first record. */
export const ALREADY_PROJECTED = 'PX002';

/**
 * Writes merged journal records into the tables (docs/engine.md "Projection") and moves
 * `engine_projection.seq` to the last of them, exactly once: the statement refuses itself, writing
 * nothing, unless the tables hold every record before the first (another projector got there, or
 * a record would be written twice). Every row is written as the records left it, never as a
 * delta, so what a row holds never depends on how the records were merged.
 *
 * The hot tables (orders, trades, balances, the ledger) are one statement of data-modifying WITH
 * queries, each table's rows as arrays per column for `unnest`. Oracle questions, resolutions,
 * events and redemptions, which few records carry, follow in the same transaction.
 */
export async function writeProjection(db: Db, m: ProjectionWrites, { notify = false }: { notify?: boolean } = {}): Promise<void> {
  const rare = m.questions.size + m.resolutions.length + m.events.size + m.redemptions.length > 0;
  if (!rare) {
    await projectionStatement(m, notify).execute(db);
    return;
  }
  await db.transaction().execute(async (tx) => {
    await projectionStatement(m, notify).execute(tx);
    await writeRareParts(tx, m);
  });
}

function projectionStatement(m: ProjectionWrites, notify: boolean): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`projected AS (UPDATE engine_projection SET seq = ${m.last} WHERE id = 1 AND seq = ${m.first - 1n} RETURNING 1)`];
  const checks: RawBuilder<unknown>[] = [sql`pmx_require(EXISTS (SELECT 1 FROM projected), ${ALREADY_PROJECTED}, ${`journal record ${m.first} is not the next one the tables lack`})`];
  if (m.newOrders.size > 0) {
    const { columns, arrays } = columnArrays([...m.newOrders.values()], ORDER_COLUMN_TYPES);
    parts.push(sql`new_orders AS (INSERT INTO orders (${columns}) SELECT * FROM unnest(${arrays}))`);
  }
  if (m.orders.size > 0) {
    const images = [...m.orders.values()].map((o) => ({ id: o.id, bookSeq: o.bookSeq, matched: o.matchedBaseUnits, status: o.status, delayedUntil: o.delayedUntilMs === null ? null : new Date(o.delayedUntilMs), updatedAt: new Date(o.updatedAtMs) }));
    const { arrays } = columnArrays(images, { id: 'uuid', bookSeq: 'bigint', matched: 'bigint', status: 'text', delayedUntil: 'timestamptz', updatedAt: 'timestamptz' });
    parts.push(sql`changed_orders AS (
      UPDATE orders AS o SET book_seq = v.book_seq, matched_base_units = v.matched, status = v.status, delayed_until = v.delayed_until, updated_at = v.updated_at
      FROM unnest(${arrays}) AS v(id, book_seq, matched, status, delayed_until, updated_at) WHERE o.id = v.id)`);
  }
  if (m.trades.size > 0) {
    const { columns, arrays } = columnArrays([...m.trades.values()], TRADE_COLUMN_TYPES);
    parts.push(sql`trades_written AS (
      INSERT INTO trades (${columns}) SELECT * FROM unnest(${arrays})
      ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, tx_hash = EXCLUDED.tx_hash, mined_at = EXCLUDED.mined_at, confirmed_at = EXCLUDED.confirmed_at)`);
  }
  if (m.balances.size > 0) {
    const { columns, arrays } = columnArrays([...m.balances.values()], { account: 'text', asset: 'text', balance: 'numeric', locked: 'numeric' });
    parts.push(sql`balances_written AS (
      INSERT INTO ledger_balances (${columns}) SELECT * FROM unnest(${arrays})
      ON CONFLICT (account, asset) DO UPDATE SET balance = EXCLUDED.balance, locked = EXCLUDED.locked)`);
  }
  if (m.ledgerMarkets.size > 0) {
    const markets = [...m.ledgerMarkets.values()].map((market) => ({
      conditionId: market.conditionId, tokenId1: market.tokenId1, tokenId2: market.tokenId2, payout1: market.payout?.payout1 ?? null,
      payout2: market.payout?.payout2 ?? null, den: market.payout?.den ?? null, resolvedAt: market.resolvedAtMs === null ? null : new Date(market.resolvedAtMs),
    }));
    const { arrays } = columnArrays(markets, { conditionId: 'text', tokenId1: 'text', tokenId2: 'text', payout1: 'integer', payout2: 'integer', den: 'integer', resolvedAt: 'timestamptz' });
    parts.push(sql`markets_written AS (
      INSERT INTO ledger_markets (condition_id, token_id1, token_id2, payout1, payout2, payout_den, resolved_at) SELECT * FROM unnest(${arrays})
      ON CONFLICT (condition_id) DO UPDATE SET payout1 = EXCLUDED.payout1, payout2 = EXCLUDED.payout2, payout_den = EXCLUDED.payout_den, resolved_at = EXCLUDED.resolved_at)`);
  }
  if (m.ledgerTxs.length > 0) {
    const txs = m.ledgerTxs.map((t) => ({ seq: t.seq, txHash: t.txHash, kind: t.kind, ref: t.ref, createdAt: new Date(t.createdAtMs), block: t.blockNumber, chainTxHash: t.chainTxHash }));
    const { arrays } = columnArrays(txs, { seq: 'bigint', txHash: 'text', kind: 'text', ref: 'text', createdAt: 'timestamptz', block: 'bigint', chainTxHash: 'text' });
    parts.push(sql`txs_written AS (INSERT INTO ledger_transactions (seq, tx_hash, kind, ref, created_at, block_number, chain_tx_hash) SELECT * FROM unnest(${arrays}))`);
    const entries = m.ledgerTxs.flatMap((t) => t.entries.map((e, idx) => ({ txSeq: t.seq, idx, account: e.account, asset: e.asset, amount: e.amount, reason: e.reason })));
    if (entries.length > 0) {
      const entryArrays = columnArrays(entries, { txSeq: 'bigint', idx: 'smallint', account: 'text', asset: 'text', amount: 'numeric', reason: 'text' });
      parts.push(sql`entries_written AS (INSERT INTO ledger_entries (tx_seq, idx, account, asset, amount, reason) SELECT * FROM unnest(${entryArrays.arrays}))`);
    }
  }
  if (m.blocks.length > 0) {
    const blocks = m.blocks.map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash, txCount: b.txs.length, sealedAt: new Date(b.sealedAtMs) }));
    const { arrays } = columnArrays(blocks, { number: 'bigint', hash: 'text', parentHash: 'text', txCount: 'integer', sealedAt: 'timestamptz' });
    parts.push(sql`blocks_written AS (INSERT INTO ledger_blocks (number, hash, parent_hash, tx_count, sealed_at) SELECT * FROM unnest(${arrays}))`);
    const head = m.blocks.at(-1)!;
    parts.push(sql`head_written AS (UPDATE ledger_chain_head SET number = ${head.number}, hash = ${head.hash} WHERE id = 1)`);
  }
  if (m.sealedEarlier.length > 0) {
    const { arrays } = columnArrays(m.sealedEarlier, { seq: 'bigint', blockNumber: 'bigint' });
    parts.push(sql`sealed_earlier AS (
      UPDATE ledger_transactions AS t SET block_number = v.block_number FROM unnest(${arrays}) AS v(seq, block_number)
      WHERE t.seq = v.seq AND t.block_number IS NULL RETURNING 1)`);
    checks.push(sql`pmx_require((SELECT count(*) FROM sealed_earlier) = ${m.sealedEarlier.length}, 'P0001', 'a block sealed a transaction the tables lack or had sealed')`);
  }
  if (notify) checks.push(sql`pg_notify('pmx_projection', ${m.last.toString()})`);
  return prepared(sql`WITH ${sql.join(parts)} SELECT ${sql.join(checks)}`);
}

async function writeRareParts(tx: Db, m: ProjectionWrites): Promise<void> {
  for (const [marketId, { state, atMs }] of m.questions) {
    const now = new Date(atMs);
    await saveQuestion(tx, marketId, state, now);
    await updateMarket(tx, marketId, {
      has_proposed_price: state.proposedOutcome !== null,
      proposed_price: state.proposedOutcome,
      proposed_at: state.proposedAtMs === null ? null : new Date(state.proposedAtMs),
      is_disputed: state.disputer !== null,
      question_flagged_timestamp: BigInt(state.disputedAtMs === null ? 0 : Math.floor(state.disputedAtMs / 1000)),
      is_settled: state.status === 'SETTLED' || state.status === 'RESOLVED',
      updated_at: now,
    });
  }
  for (const r of m.resolutions) {
    await updateMarket(tx, r.marketId, {
      status: 'RESOLVED', is_resolved: true, is_settled: true, market_resolved_to: r.outcome,
      resolved_on_adapter_timestamp: BigInt(Math.floor(r.atMs / 1000)), updated_at: new Date(r.atMs),
    });
  }
  for (const change of m.events.values()) {
    await updateEvent(tx, change.eventId, {
      ...(change.winningMarketId ? { winning_market_id: change.winningMarketId, is_determined: true } : {}),
      ...(change.resolved ? { status: 'RESOLVED' as const } : {}),
      updated_at: new Date(change.atMs),
    });
  }
  if (m.redemptions.length > 0) {
    await insertRedemptions(tx, m.redemptions.map((r) => ({
      id: r.id, user_id: r.userId, account: r.account, market_id: r.marketId, tx_hash: r.txHash, burned1_base_units: r.burned[0],
      burned2_base_units: r.burned[1], payout_base_units: r.payoutBaseUnits, created_at: new Date(r.atMs),
    })));
  }
}
