import { sql } from 'kysely';
import type { Db } from './database.ts';

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

export async function insertJournal(db: Db, txs: JournalTransaction[], entries: JournalEntry[]): Promise<void> {
  if (txs.length === 0) return;
  await sql`
    INSERT INTO ledger_transactions (seq, tx_hash, kind, ref, created_at)
    SELECT * FROM unnest(${txs.map((t) => t.seq.toString())}::bigint[], ${txs.map((t) => t.txHash)}::text[], ${txs.map((t) => t.kind)}::text[],
                         ${txs.map((t) => t.ref)}::text[], ${txs.map((t) => t.createdAt.toISOString())}::timestamptz[])`.execute(db);
  if (entries.length === 0) return;
  await sql`
    INSERT INTO ledger_entries (tx_seq, idx, account, asset, amount, reason)
    SELECT * FROM unnest(${entries.map((e) => e.txSeq.toString())}::bigint[], ${entries.map((e) => e.idx)}::smallint[],
                         ${entries.map((e) => e.account)}::text[], ${entries.map((e) => e.asset)}::text[],
                         ${entries.map((e) => e.amount.toString())}::numeric[], ${entries.map((e) => e.reason)}::text[])`.execute(db);
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
export async function upsertMarkets(db: Db, markets: Array<{ conditionId: string; tokenId1: string; tokenId2: string }>): Promise<void> {
  if (markets.length === 0) return;
  await sql`
    INSERT INTO ledger_markets (condition_id, token_id1, token_id2)
    SELECT * FROM unnest(${markets.map((m) => m.conditionId)}::text[], ${markets.map((m) => m.tokenId1)}::text[], ${markets.map((m) => m.tokenId2)}::text[])
    ON CONFLICT DO NOTHING`.execute(db);
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

/** The chain head, locked: only one sealer at a time extends the chain. */
export async function lockChainHead(db: Db): Promise<{ number: bigint; hash: string }> {
  const row = await db.selectFrom('ledger_chain_head').select(['number', 'hash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
  return { number: BigInt(row.number), hash: row.hash };
}

export async function listUnsealedTransactions(db: Db, limit: number): Promise<Array<{ seq: bigint; txHash: string }>> {
  const rows = await db.selectFrom('ledger_transactions').select(['seq', 'tx_hash']).where('block_number', 'is', null).orderBy('seq').limit(limit).execute();
  return rows.map((r) => ({ seq: BigInt(r.seq), txHash: r.tx_hash }));
}

export async function appendBlock(db: Db, block: { number: bigint; hash: string; parentHash: string; sealedAt: Date; seqs: bigint[] }): Promise<void> {
  await db.insertInto('ledger_blocks').values({ number: block.number, hash: block.hash, parent_hash: block.parentHash, tx_count: block.seqs.length, sealed_at: block.sealedAt }).execute();
  await sql`UPDATE ledger_transactions SET block_number = ${block.number.toString()}::bigint WHERE seq = ANY(${block.seqs.map(String)}::bigint[])`.execute(db);
  await db.updateTable('ledger_chain_head').set({ number: block.number, hash: block.hash }).where('id', '=', 1).execute();
}
