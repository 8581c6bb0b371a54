import { sql, type Kysely } from 'kysely';

/**
 * The catalogue: categories, tags, events and their markets. Amounts (event reward and proposal
 * bond) are bigint base units. Settlement ids (condition, question, token ids) stay null until the
 * event is published; token ids are unique once set because the engine and books key on them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'uuid', (c) => c.notNull())
    .addColumn('updated_by', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    // DRAFT, ACTIVE or RESOLVED; ENDED is derived at read time from end_date and the clock.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_date', 'timestamptz', (c) => c.notNull())
    .addColumn('end_date', 'timestamptz')
    .addColumn('protected', 'boolean', (c) => c.notNull().defaultTo(false))
    // Kept in step with the number of markets, so list filters need no count.
    .addColumn('single', 'boolean', (c) => c.notNull())
    .addColumn('neg_risk', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('series_layout', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_determined', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_initialized', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('winning_market_id', 'uuid')
    .addColumn('fee_bips', 'integer')
    .addColumn('reward_base_units', 'bigint', (c) => c.notNull())
    .addColumn('proposal_bond_base_units', 'bigint', (c) => c.notNull())
    .addColumn('liveness_seconds', 'integer', (c) => c.notNull())
    .addColumn('order_fee_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('passive_order_fee_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('onchain_market_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ancillary_data', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('created_by', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX events_by_created ON events (created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX events_by_end_date ON events (end_date)`.execute(db);
  await sql`CREATE INDEX events_by_status ON events (status)`.execute(db);

  await db.schema
    .createTable('event_categories')
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('category_id', 'uuid', (c) => c.notNull().references('categories.id'))
    .addPrimaryKeyConstraint('event_categories_pk', ['event_id', 'category_id'])
    .execute();
  await sql`CREATE INDEX event_categories_by_category ON event_categories (category_id, event_id)`.execute(db);

  await db.schema
    .createTable('event_tags')
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('tag_id', 'uuid', (c) => c.notNull().references('tags.id'))
    .addPrimaryKeyConstraint('event_tags_pk', ['event_id', 'tag_id'])
    .execute();
  await sql`CREATE INDEX event_tags_by_tag ON event_tags (tag_id, event_id)`.execute(db);

  await db.schema
    .createTable('markets')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id'))
    // Order of the market inside its event (creation order).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_date', 'timestamptz')
    .addColumn('end_date', 'timestamptz')
    .addColumn('is_paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('neg_risk', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('tick_size', 'text', (c) => c.notNull())
    .addColumn('order_fee_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('passive_order_fee_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('speed_bump_delay_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outcome1', 'text', (c) => c.notNull())
    .addColumn('outcome2', 'text', (c) => c.notNull())
    .addColumn('condition_id', 'text')
    .addColumn('question_id', 'text')
    .addColumn('token_id1', 'text', (c) => c.unique())
    .addColumn('token_id2', 'text', (c) => c.unique())
    .addColumn('onchain_market_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('transaction_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ancillary_data', 'text', (c) => c.notNull())
    .addColumn('is_initialized', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_registered', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_resolved', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_settled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_disputed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('has_proposed_price', 'boolean', (c) => c.notNull().defaultTo(false))
    // "" until resolution, then YES, NO or TIE (EXTENSIONS.md section 11).
    .addColumn('market_resolved_to', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolved_on_adapter_timestamp', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('question_flagged_timestamp', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('proposed_at', 'timestamptz')
    .addColumn('proposed_price', 'text')
    .addColumn('first_price_data_at', 'timestamptz')
    .addColumn('display_timezone', 'text')
    .addColumn('question_index', 'integer')
    .addColumn('created_by', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX markets_by_event ON markets (event_id, position)`.execute(db);
  await sql`CREATE INDEX markets_tradable ON markets (status) WHERE status = 'ACTIVE'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('markets').execute();
  await db.schema.dropTable('event_tags').execute();
  await db.schema.dropTable('event_categories').execute();
  await db.schema.dropTable('events').execute();
  await db.schema.dropTable('tags').execute();
  await db.schema.dropTable('categories').execute();
}
