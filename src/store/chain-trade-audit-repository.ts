import { sql } from 'kysely';
import type { Db } from './database.ts';

/** What the trades say one order filled in one transaction: its outcome tokens, over all its trades there. */
export interface RecordedFill {
  txHash: string;
  orderHash: string;
  tokens: bigint;
  /** One of the trades, to name in a report. */
  tradeId: string;
}

/**
 * The fills of trades MINED or CONFIRMED on a chain, by transaction and order (each trade fills
 * its taker's order and its maker's), for the transactions after `afterTxHash` in hash order, at
 * most `transactions` of them (src/engine/chain-trade-audit.ts).
 */
export async function recordedFills(db: Db, afterTxHash: string, transactions: number): Promise<RecordedFill[]> {
  const { rows } = await sql<{ tx_hash: string; order_hash: string; tokens: string; trade_id: string }>`
    WITH page AS (
      SELECT DISTINCT tx_hash FROM trades
      WHERE status IN ('MINED', 'CONFIRMED') AND tx_hash IS NOT NULL AND tx_hash > ${afterTxHash}
      ORDER BY tx_hash LIMIT ${transactions}),
    fills AS (
      SELECT t.tx_hash, t.taker_order_id AS order_id, t.size_base_units, t.id FROM trades t JOIN page p ON p.tx_hash = t.tx_hash WHERE t.status IN ('MINED', 'CONFIRMED')
      UNION ALL
      SELECT t.tx_hash, t.maker_order_id, t.size_base_units, t.id FROM trades t JOIN page p ON p.tx_hash = t.tx_hash WHERE t.status IN ('MINED', 'CONFIRMED'))
    SELECT f.tx_hash, lower(o.hash) AS order_hash, sum(f.size_base_units)::text AS tokens, min(f.id::text) AS trade_id
    FROM fills f JOIN orders o ON o.id = f.order_id
    GROUP BY f.tx_hash, lower(o.hash)
    ORDER BY f.tx_hash, lower(o.hash)`.execute(db);
  return rows.map((r) => ({ txHash: r.tx_hash, orderHash: r.order_hash, tokens: BigInt(r.tokens), tradeId: r.trade_id }));
}
