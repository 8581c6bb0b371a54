import { sql } from 'kysely';
import type { Db } from './database.ts';

/** Read-only aggregates the ledger audit compares (src/settlement/audit.ts). */
export interface BalanceVsJournal {
  account: string;
  asset: string;
  balance: bigint;
  locked: bigint;
  journal: bigint;
}

/** Every balance row beside the sum of its journal entries (a side missing on either reads 0). */
export async function balancesAgainstJournal(db: Db): Promise<BalanceVsJournal[]> {
  const { rows } = await sql<{ account: string; asset: string; balance: string; locked: string; journal: string }>`
    SELECT coalesce(b.account, j.account) AS account, coalesce(b.asset, j.asset) AS asset,
           coalesce(b.balance, 0)::text AS balance, coalesce(b.locked, 0)::text AS locked, coalesce(j.total, 0)::text AS journal
    FROM ledger_balances b
    FULL OUTER JOIN (SELECT account, asset, sum(amount) AS total FROM ledger_entries GROUP BY account, asset) j
      ON j.account = b.account AND j.asset = b.asset
    ORDER BY 1, 2`.execute(db);
  return rows.map((r) => ({ account: r.account, asset: r.asset, balance: BigInt(r.balance), locked: BigInt(r.locked), journal: BigInt(r.journal) }));
}

/** Total of the journal entries of transactions of the given kinds (the credits that bring value in). */
export async function journalTotalOfKinds(db: Db, kinds: string[], asset: string): Promise<bigint> {
  const { rows } = await sql<{ total: string }>`
    SELECT coalesce(sum(e.amount), 0)::text AS total FROM ledger_entries e JOIN ledger_transactions t ON t.seq = e.tx_seq
    WHERE t.kind = ANY(${kinds}::text[]) AND e.asset = ${asset}`.execute(db);
  return BigInt(rows[0]!.total);
}

export interface RecordedTransaction {
  seq: bigint;
  txHash: string;
  kind: string;
  ref: string;
  createdAt: Date;
  blockNumber: bigint | null;
  entries: Array<{ account: string; asset: string; amount: bigint; reason: string }>;
}

/** A page of transactions with their entries, by sequence after `afterSeq`. */
export async function pageTransactions(db: Db, afterSeq: bigint, limit: number): Promise<RecordedTransaction[]> {
  const txs = await db.selectFrom('ledger_transactions').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  if (txs.length === 0) return [];
  const entries = await db.selectFrom('ledger_entries').selectAll()
    .where('tx_seq', '>=', BigInt(txs[0]!.seq)).where('tx_seq', '<=', BigInt(txs[txs.length - 1]!.seq))
    .orderBy('tx_seq').orderBy('idx').execute();
  const bySeq = new Map<string, RecordedTransaction>();
  const out = txs.map((t) => {
    const tx: RecordedTransaction = { seq: BigInt(t.seq), txHash: t.tx_hash, kind: t.kind, ref: t.ref, createdAt: t.created_at, blockNumber: t.block_number === null ? null : BigInt(t.block_number), entries: [] };
    bySeq.set(String(t.seq), tx);
    return tx;
  });
  for (const e of entries) bySeq.get(String(e.tx_seq))?.entries.push({ account: e.account, asset: e.asset, amount: BigInt(e.amount), reason: e.reason });
  return out;
}

export async function listBlocks(db: Db): Promise<Array<{ number: bigint; hash: string; parentHash: string; txCount: number; sealedAt: Date }>> {
  const rows = await db.selectFrom('ledger_blocks').selectAll().orderBy('number').execute();
  return rows.map((r) => ({ number: BigInt(r.number), hash: r.hash, parentHash: r.parent_hash, txCount: r.tx_count, sealedAt: r.sealed_at }));
}

export async function findChainHead(db: Db): Promise<{ number: bigint; hash: string }> {
  const row = await db.selectFrom('ledger_chain_head').select(['number', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
  return { number: BigInt(row.number), hash: row.hash };
}

/** What open orders should keep locked, from the orders table (see src/settlement/expected-locks.ts). */
export async function listOpenOrderTerms(db: Db) {
  const rows = await db.selectFrom('orders')
    .select(['account', 'token_id', 'side', 'price_micros', 'size_base_units', 'matched_base_units', 'fee_rate_bps', 'passive_fee_rate_bps'])
    .where('status', 'in', ['PENDING', 'EXECUTING'])
    .execute();
  return rows.map((r) => ({
    account: r.account,
    tokenId: r.token_id,
    side: r.side === 0 ? ('BUY' as const) : ('SELL' as const),
    limitMicros: Number(r.price_micros),
    remainingBaseUnits: BigInt(r.size_base_units) - BigInt(r.matched_base_units),
    takerFeeBps: r.fee_rate_bps,
    makerFeeBps: r.passive_fee_rate_bps,
  }));
}

/**
 * Both parties of every MATCHED trade, each in its own terms (side, token, price): until a trade
 * settles, what it moves stays locked. The maker's side and token come from its order, so MINT
 * and MERGE makers (the other token) are read as exactly as TRANSFER makers. A MATCHED trade with
 * its ledger transaction (mined on a chain, then taken back by a reorg) moved its amounts already.
 */
export async function listMatchedTradeParties(db: Db) {
  const rows = await db.selectFrom('trades as t')
    .select(['t.token_id', 't.side', 't.price_micros', 't.size_base_units', 't.taker_wallet', 't.maker_wallet', 't.taker_fee_base_units', 't.maker_fee_base_units', 't.maker_token_id', 't.maker_side', 't.maker_price_micros'])
    .where('t.status', '=', 'MATCHED')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('ledger_transactions as l').select('l.seq').where('l.ref', '=', sql<string>`t.id::text`).where('l.kind', 'like', 'TRADE\\_%'))))
    .execute();
  return rows.flatMap((r) => {
    const size = BigInt(r.size_base_units);
    return [
      { account: r.taker_wallet, side: r.side === 0 ? ('BUY' as const) : ('SELL' as const), tokenId: r.token_id, priceMicros: Number(r.price_micros), feeBaseUnits: BigInt(r.taker_fee_base_units), sizeBaseUnits: size },
      { account: r.maker_wallet, side: r.maker_side === 0 ? ('BUY' as const) : ('SELL' as const), tokenId: r.maker_token_id, priceMicros: Number(r.maker_price_micros), feeBaseUnits: BigInt(r.maker_fee_base_units), sizeBaseUnits: size },
    ];
  });
}
