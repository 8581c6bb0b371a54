import { sql, type Kysely } from 'kysely';

/**
 * The maker's side, token and price of every trade, stored beside the taker's instead of being
 * re-derived by each reader (activity, positions, settlement, the ledger audit). Existing rows are
 * backfilled by the rule the engine fills by (one book per market): a TRANSFER's maker takes the
 * other side of the same token at the same price; a MINT's or MERGE's maker is on the same side of
 * the other token, at the complementary price.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('trades')
    .addColumn('maker_side', 'smallint')
    .addColumn('maker_token_id', 'text')
    .addColumn('maker_price_micros', 'bigint')
    .execute();
  await sql`
    UPDATE trades AS t SET
      maker_side = CASE WHEN t.kind = 'TRANSFER' THEN 1 - t.side ELSE t.side END,
      maker_token_id = CASE WHEN t.kind = 'TRANSFER' THEN t.token_id WHEN t.token_id = m.token_id1 THEN m.token_id2 ELSE m.token_id1 END,
      maker_price_micros = CASE WHEN t.kind = 'TRANSFER' THEN t.price_micros ELSE 1000000 - t.price_micros END -- 1.0 in price units (core/money.ts PRICE_ONE)
    FROM markets AS m WHERE m.id = t.market_id`.execute(db);
  await sql`ALTER TABLE trades
    ALTER COLUMN maker_side SET NOT NULL,
    ALTER COLUMN maker_token_id SET NOT NULL,
    ALTER COLUMN maker_price_micros SET NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trades').dropColumn('maker_side').dropColumn('maker_token_id').dropColumn('maker_price_micros').execute();
}
