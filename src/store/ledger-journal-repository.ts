import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import { balanceChangesParts, type BalanceChange } from './ledger-balances-repository.ts';

/**
 * The settlement ledger's journal (immutable transactions and entries), its markets and its
 * hash-chained blocks. Batched writes go through `unnest` so a batch of hundreds of trades is a
 * handful of statements.
 */
export interface JournalTransaction {
  seq: bigint;
  txHash: string;
  kind: string;
  ref: string;
  createdAt: Date;
}

export interface MarketTokenIds {
  conditionId: string;
  tokenId1: string;
  tokenId2: string;
}

export interface JournalEntry {
  txSeq: bigint;
  idx: number;
  account: string;
  asset: string;
  amount: bigint;
  reason: string;
}

/** `count` fresh transaction sequence numbers in one round trip. */
export async function nextTransactionSeqs(db: Db, count: number): Promise<bigint[]> {
  const { rows } = await sql<{ seq: bigint }>`SELECT nextval('ledger_tx_seq') AS seq FROM generate_series(1, ${count}::int)`.execute(db);
  return rows.map((r) => BigInt(r.seq));
}

/**
 * Records ledger transactions in one statement: the markets they name (registered once), the
 * transactions, their entries and the balances they change, each a WITH query. Four to six
 * statements before, each a round trip on PostgreSQL and a parse and plan on both stores, in every
 * settlement round, credit, split and redemption. The statement checks that every change found or
 * made its balance row (`pmx_require`), so it writes everything or nothing.
 */
export async function writePostings(db: Db, w: { markets: MarketTokenIds[]; txs: JournalTransaction[]; entries: JournalEntry[]; changes: BalanceChange[] }): Promise<void> {
  if (w.txs.length === 0) return;
  const parts: RawBuilder<unknown>[] = [];
  const checks: RawBuilder<unknown>[] = [];
  if (w.markets.length > 0) parts.push(sql`markets AS (${marketsInsert(w.markets)})`);
  parts.push(sql`transactions AS (
    INSERT INTO ledger_transactions (seq, tx_hash, kind, ref, created_at)
    SELECT * FROM unnest(${w.txs.map((t) => t.seq.toString())}::bigint[], ${w.txs.map((t) => t.txHash)}::text[], ${w.txs.map((t) => t.kind)}::text[],
                         ${w.txs.map((t) => t.ref)}::text[], ${w.txs.map((t) => t.createdAt.toISOString())}::timestamptz[]))`);
  if (w.entries.length > 0) {
    parts.push(sql`entries AS (
      INSERT INTO ledger_entries (tx_seq, idx, account, asset, amount, reason)
      SELECT * FROM unnest(${w.entries.map((e) => e.txSeq.toString())}::bigint[], ${w.entries.map((e) => e.idx)}::smallint[],
                           ${w.entries.map((e) => e.account)}::text[], ${w.entries.map((e) => e.asset)}::text[],
                           ${w.entries.map((e) => e.amount.toString())}::numeric[], ${w.entries.map((e) => e.reason)}::text[]))`);
  }
  if (w.changes.length > 0) {
    const balances = balanceChangesParts(w.changes);
    parts.push(...balances.parts);
    checks.push(balances.check);
  }
  await sql`WITH ${sql.join(parts)} SELECT ${checks.length > 0 ? sql.join(checks) : sql`1`}`.execute(db);
}

export interface LedgerMarket {
  conditionId: string;
  tokenId1: string;
  tokenId2: string;
  /** Null until resolved. */
  payout: { payout1: number; payout2: number; den: number } | null;
}

/**
 * Registers token pairs; a market already known keeps its row (its tokens never change). No
 * conflict target: every unique index is an arbiter, so two transactions registering the same
 * market at once do nothing instead of failing on `token_id1` (PostgreSQL checks only the arbiter
 * before inserting, then waits on the other unique indexes and raises there).
 */
export async function upsertMarkets(db: Db, markets: MarketTokenIds[]): Promise<void> {
  if (markets.length === 0) return;
  await marketsInsert(markets).execute(db);
}

function marketsInsert(markets: MarketTokenIds[]): RawBuilder<unknown> {
  return sql`
    INSERT INTO ledger_markets (condition_id, token_id1, token_id2)
    SELECT * FROM unnest(${markets.map((m) => m.conditionId)}::text[], ${markets.map((m) => m.tokenId1)}::text[], ${markets.map((m) => m.tokenId2)}::text[])
    ON CONFLICT DO NOTHING`;
}

export async function findMarket(db: Db, conditionId: string): Promise<LedgerMarket | undefined> {
  const row = await db.selectFrom('ledger_markets').selectAll().where('condition_id', '=', conditionId).executeTakeFirst();
  return row && toMarket(row);
}

export async function listMarkets(db: Db): Promise<LedgerMarket[]> {
  return (await db.selectFrom('ledger_markets').selectAll().orderBy('condition_id').execute()).map(toMarket);
}

function toMarket(row: { condition_id: string; token_id1: string; token_id2: string; payout1: number | null; payout2: number | null; payout_den: number | null }): LedgerMarket {
  const resolved = row.payout1 !== null && row.payout2 !== null && row.payout_den !== null;
  return {
    conditionId: row.condition_id,
    tokenId1: row.token_id1,
    tokenId2: row.token_id2,
    payout: resolved ? { payout1: row.payout1!, payout2: row.payout2!, den: row.payout_den! } : null,
  };
}

/** Records a payout vector once; false when the market is unknown or already resolved. */
export async function setMarketPayout(db: Db, conditionId: string, payout: { payout1: number; payout2: number; den: number }, at: Date): Promise<boolean> {
  const result = await db.updateTable('ledger_markets')
    .set({ payout1: payout.payout1, payout2: payout.payout2, payout_den: payout.den, resolved_at: at })
    .where('condition_id', '=', conditionId).where('payout_den', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * The chain head, locked (only one sealer at a time extends the chain), and the first `limit`
 * transactions no block holds yet, in sequence order: one round trip.
 */
export async function readChainTip(db: Db, limit: number): Promise<{ head: { number: bigint; hash: string }; unsealed: Array<{ seq: bigint; txHash: string }> }> {
  const { rows } = await sql<{ number: string; hash: string; seq: string | null; tx_hash: string | null }>`
    SELECT h.number::text AS number, h.hash, u.seq::text AS seq, u.tx_hash
    FROM (SELECT number, hash FROM ledger_chain_head WHERE id = 1 FOR UPDATE) h
    LEFT JOIN LATERAL (SELECT seq, tx_hash FROM ledger_transactions WHERE block_number IS NULL ORDER BY seq LIMIT ${limit}) u ON true
    ORDER BY u.seq`.execute(db);
  const first = rows[0];
  if (!first) throw new Error('the ledger has no chain head');
  return {
    head: { number: BigInt(first.number), hash: first.hash },
    unsealed: rows.flatMap((r) => (r.seq === null || r.tx_hash === null ? [] : [{ seq: BigInt(r.seq), txHash: r.tx_hash }])),
  };
}

/**
 * Appends a block in one statement: its row, its transactions' block number and the chain head.
 * It checks that it sealed every transaction it names, none sealed before, and that the head was
 * still its parent (`pmx_require`), so it writes everything or nothing.
 */
export async function appendBlock(db: Db, block: { number: bigint; hash: string; parentHash: string; sealedAt: Date; seqs: bigint[] }): Promise<void> {
  const number = block.number.toString();
  await sql`
    WITH block AS (
      INSERT INTO ledger_blocks (number, hash, parent_hash, tx_count, sealed_at)
      VALUES (${number}::bigint, ${block.hash}, ${block.parentHash}, ${block.seqs.length}, ${block.sealedAt.toISOString()}::timestamptz)
    ), sealed AS (
      UPDATE ledger_transactions SET block_number = ${number}::bigint
      WHERE seq = ANY(${block.seqs.map(String)}::bigint[]) AND block_number IS NULL
      RETURNING 1
    ), head AS (
      UPDATE ledger_chain_head SET number = ${number}::bigint, hash = ${block.hash}
      WHERE id = 1 AND number = ${number}::bigint - 1 AND hash = ${block.parentHash}
      RETURNING 1
    )
    SELECT pmx_require((SELECT count(*) FROM sealed) = ${block.seqs.length} AND EXISTS (SELECT 1 FROM head), 'P0001',
                       'block ' || ${number} || ' sealed ' || (SELECT count(*) FROM sealed) || ' of ' || ${block.seqs.length} || ' transactions or lost its parent')`.execute(db);
}
