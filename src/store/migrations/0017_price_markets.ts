import { sql, type Kysely } from 'kysely';

/**
 * Recurring price markets (EXTENSIONS.md section 13; src/prices, src/templates).
 * - reference_prices: every price the feed gave (or the operator posted), with its own time, so
 *   "the price at T" is the last row of the pair at or before T, the same after a restart.
 * - price_targets: a market's priceTargetConfig; `target_price` null while a CLOSE_PRICE target is
 *   unknown, then set once and kept.
 * - templates: recurring market templates; each owns one series event (events.template_id),
 *   which keeps what is the event's (categories, tags, reward, proposal bond, liveness).
 * - template_markets: one row per published period; the primary key (template_id, period_start)
 *   is what makes two nodes (or a restart) unable to publish one period twice.
 * Prices are bigint units of 10^-8 (core/prices.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reference_prices')
    .addColumn('pair', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('reference_prices_pk', ['pair', 'at'])
    .execute();

  await db.schema
    .createTable('price_targets')
    .addColumn('market_id', 'uuid', (c) => c.primaryKey().references('markets.id'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('pair', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target_price', 'bigint')
    .addColumn('target_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resolve_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX price_targets_resolve_at ON price_targets (resolve_at)`.execute(db);

  await db.schema
    .createTable('templates')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('pair', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('first_start', 'timestamptz', (c) => c.notNull())
    .addColumn('lead', 'integer', (c) => c.notNull())
    .addColumn('display_timezone', 'text', (c) => c.notNull())
    .addColumn('tick_size', 'text', (c) => c.notNull())
    .addColumn('order_fee_rate_bps', 'integer')
    .addColumn('passive_order_fee_rate_bps', 'integer')
    .addColumn('rewards', 'jsonb')
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id'))
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('template_markets')
    .addColumn('template_id', 'uuid', (c) => c.notNull().references('templates.id'))
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('market_id', 'uuid', (c) => c.notNull().unique().references('markets.id'))
    .addPrimaryKeyConstraint('template_markets_pk', ['template_id', 'period_start'])
    .execute();

  await db.schema.alterTable('events').addColumn('template_id', 'uuid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('template_id').execute();
  await db.schema.dropTable('template_markets').execute();
  await db.schema.dropTable('templates').execute();
  await db.schema.dropTable('price_targets').execute();
  await db.schema.dropTable('reference_prices').execute();
}
