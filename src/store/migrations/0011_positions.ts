import { sql, type Kysely } from 'kysely';

/**
 * Positions and P&L, projected from the ledger journal (src/portfolio/projector.ts).
 * - ledger_transactions.xid: the writing transaction's id, so the projector can read exactly the
 *   transactions that have finished (those below the snapshot's xmin) and never skip one that
 *   commits late with a smaller sequence number.
 * - position_cursor: one row, the xid horizon below which every journal transaction is projected.
 * - positions: one row per (account, token) ever held, the state of core/positions.
 * - pnl_series: the realised P&L each account made per hour, the recorded series of pnl-history.
 * A wallet's trades (profile activity, predictions) are found through the wallet indexes of
 * 0012_user_activity_indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_transactions ADD COLUMN xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)`.execute(db);
  await sql`CREATE INDEX ledger_transactions_by_xid ON ledger_transactions (xid, seq)`.execute(db);

  await db.schema.createTable('position_cursor')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('xid_horizon', 'bigint', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO position_cursor (id, xid_horizon) VALUES (1, 0)`.execute(db);

  const money = sql`numeric(78, 0)`;
  await db.schema.createTable('positions')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('market_id', 'uuid', (c) => c.notNull())
    .addColumn('outcome_index', 'smallint', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('cost_basis', money, (c) => c.notNull())
    .addColumn('realized_pnl', money, (c) => c.notNull())
    .addColumn('acquired_amount', money, (c) => c.notNull())
    .addColumn('acquired_cost', money, (c) => c.notNull())
    .addColumn('disposed_amount', money, (c) => c.notNull())
    .addColumn('disposed_proceeds', money, (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('positions_pk', ['account', 'token_id'])
    .execute();
  await sql`CREATE INDEX positions_by_market ON positions (market_id)`.execute(db);

  await db.schema.createTable('pnl_series')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addColumn('realized_pnl', money, (c) => c.notNull())
    .addPrimaryKeyConstraint('pnl_series_pk', ['account', 'hour'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pnl_series').execute();
  await db.schema.dropTable('positions').execute();
  await db.schema.dropTable('position_cursor').execute();
  await sql`ALTER TABLE ledger_transactions DROP COLUMN xid`.execute(db);
}
