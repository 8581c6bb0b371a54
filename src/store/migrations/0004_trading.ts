import { sql, type Kysely } from 'kysely';

/**
 * Orders and trades. Amounts are bigint base units (6 decimals); prices are integer millionths of
 * collateral per token (`price_micros`), always in the order's own token terms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    // The ledger account that reserves and settles for this order (the owner's proxy wallet).
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('outcome_index', 'smallint', (c) => c.notNull())
    .addColumn('side', 'smallint', (c) => c.notNull())
    .addColumn('order_type', 'text', (c) => c.notNull())
    .addColumn('post_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('price_micros', 'bigint', (c) => c.notNull())
    .addColumn('size_base_units', 'bigint', (c) => c.notNull())
    .addColumn('matched_base_units', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('maker', 'text', (c) => c.notNull())
    .addColumn('signer', 'text', (c) => c.notNull())
    .addColumn('taker', 'text', (c) => c.notNull())
    .addColumn('maker_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('taker_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('expiration', 'bigint', (c) => c.notNull())
    .addColumn('nonce', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('fee_rate_bps', 'integer', (c) => c.notNull())
    // The market's maker fee rate when the order was accepted; it pays this if it rests and fills.
    .addColumn('passive_fee_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('signature_type', 'smallint', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('idempotency_key', 'uuid')
    .addColumn('metadata', 'jsonb')
    // Time priority: assigned by the engine when it accepts the order; books are rebuilt in this order.
    .addColumn('book_seq', 'bigint', (c) => c.notNull())
    // Set while a taker order waits out the market's speed bump; it is not in the book meanwhile.
    .addColumn('delayed_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX orders_user_idempotency ON orders (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_open_by_market ON orders (market_id) WHERE status IN ('PENDING', 'EXECUTING')`.execute(db);
  await sql`CREATE INDEX orders_by_user_created ON orders (user_id, created_at DESC, id DESC)`.execute(db);

  await db.schema
    .createTable('trades')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Match order across the exchange, assigned by the engine: a total order where timestamps tie.
    .addColumn('seq', 'bigint', (c) => c.notNull().unique())
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('side', 'smallint', (c) => c.notNull())
    .addColumn('price_micros', 'bigint', (c) => c.notNull())
    .addColumn('size_base_units', 'bigint', (c) => c.notNull())
    .addColumn('notional_base_units', 'bigint', (c) => c.notNull())
    .addColumn('taker_order_id', 'uuid', (c) => c.notNull())
    .addColumn('maker_order_id', 'uuid', (c) => c.notNull())
    .addColumn('taker_user_id', 'uuid', (c) => c.notNull())
    .addColumn('maker_user_id', 'uuid', (c) => c.notNull())
    .addColumn('taker_wallet', 'text', (c) => c.notNull())
    .addColumn('maker_wallet', 'text', (c) => c.notNull())
    .addColumn('taker_fee_base_units', 'bigint', (c) => c.notNull())
    .addColumn('maker_fee_base_units', 'bigint', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('matched_at', 'timestamptz', (c) => c.notNull())
    .addColumn('mined_at', 'timestamptz')
    .addColumn('confirmed_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX trades_by_market_time ON trades (market_id, matched_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX trades_by_time ON trades (matched_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX trades_unsettled ON trades (status) WHERE status IN ('MATCHED', 'MINED')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trades').execute();
  await db.schema.dropTable('orders').execute();
}
