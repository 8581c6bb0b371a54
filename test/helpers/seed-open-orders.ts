import { sql } from 'kysely';
import { openStore } from '../../src/store/database.ts';

/**
 * Seeds `count` resting BUYs of token 1 (prices 0.01-0.49, never crossing) from a template order,
 * with their reservation, and empties the engine's journal and snapshots: the next start reads
 * its state from the tables.
 */
export async function seedOpenOrders(env: Record<string, string>, templateId: string, count: number): Promise<void> {
  const store = await openStore(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, dataDir: '' } : { dataDir: env.DATA_DIR! });
  try {
    await sql`
      INSERT INTO orders (id, user_id, account, market_id, token_id, outcome_index, side, order_type, post_only, status, price_micros,
        size_base_units, matched_base_units, salt, maker, signer, taker, maker_amount, taker_amount, expiration, nonce, fee_rate_bps,
        passive_fee_rate_bps, signature_type, signature, hash, idempotency_key, metadata, book_seq, delayed_until, created_at, updated_at)
      SELECT gen_random_uuid(), t.user_id, t.account, t.market_id, t.token_id, t.outcome_index, t.side, t.order_type, t.post_only,
             'PENDING', (1 + g % 49) * 10000, t.size_base_units, 0, g::text, t.maker, t.signer, t.taker, t.maker_amount, t.taker_amount,
             t.expiration, t.nonce, t.fee_rate_bps, t.passive_fee_rate_bps, t.signature_type, t.signature,
             '0x' || md5(g::text || t.id::text) || md5(t.id::text || g::text), NULL, NULL,
             (SELECT max(book_seq) FROM orders) + g, NULL, t.created_at, t.updated_at
      FROM orders t, generate_series(1, ${count}::int) g
      WHERE t.id = ${templateId}`.execute(store.db);
    // Each copy reserves what the template does (cost plus its largest fee), credited so that the
    // trader's available balance stays as it was.
    await sql`
      UPDATE ledger_balances b SET balance = b.balance + r.total, locked = b.locked + r.total
      FROM (SELECT o.account, sum((o.price_micros * o.size_base_units) / 1000000
                   + (greatest(o.fee_rate_bps, o.passive_fee_rate_bps) * least(o.price_micros, 500000) * o.size_base_units) / 10000000000) AS total
            FROM orders o WHERE o.id <> ${templateId} AND o.status = 'PENDING' AND o.salt ~ '^[0-9]+$' AND o.salt::bigint <= ${count} GROUP BY o.account) r
      WHERE b.account = r.account AND b.asset = 'collateral'`.execute(store.db);
    await sql`DELETE FROM engine_snapshot_parts`.execute(store.db);
    await sql`DELETE FROM engine_snapshots`.execute(store.db);
    await sql`DELETE FROM engine_journal`.execute(store.db);
    await sql`UPDATE engine_projection SET seq = 0`.execute(store.db);
    // The planner's statistics, as autovacuum keeps them on a table that grew to this size.
    await sql`ANALYZE orders`.execute(store.db);
  } finally {
    await store.close();
  }
}

