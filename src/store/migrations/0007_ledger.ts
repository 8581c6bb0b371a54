import { sql, type Kysely } from 'kysely';

/**
 * The embedded settlement ledger (src/settlement). Amounts are numeric(78, 0) base units: a uint256
 * fits, so no credit however large can overflow a column into a 5xx.
 * - ledger_balances: maintained totals per (account, asset); the CHECK makes an overdraw impossible
 *   even if code above were wrong.
 * - ledger_transactions / ledger_entries: the immutable journal; every balance change is an entry.
 * - ledger_blocks / ledger_chain_head: transactions sealed into hash-chained blocks.
 * - ledger_markets: each market's token pair and, once resolved, its payout vector.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_balances')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('balance', sql`numeric(78, 0)`, (c) => c.notNull().defaultTo(0))
    .addColumn('locked', sql`numeric(78, 0)`, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ledger_balances_pk', ['account', 'asset'])
    .addCheckConstraint('ledger_balances_not_overdrawn', sql`locked >= 0 AND balance >= locked`)
    .execute();
  // Token supply and market audits group by asset.
  await sql`CREATE INDEX ledger_balances_by_asset ON ledger_balances (asset)`.execute(db);

  await sql`CREATE SEQUENCE ledger_tx_seq`.execute(db);
  await db.schema
    .createTable('ledger_transactions')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('tx_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('block_number', 'bigint')
    .execute();
  await sql`CREATE INDEX ledger_transactions_unsealed ON ledger_transactions (seq) WHERE block_number IS NULL`.execute(db);
  await sql`CREATE INDEX ledger_transactions_by_block ON ledger_transactions (block_number, seq)`.execute(db);

  await db.schema
    .createTable('ledger_entries')
    .addColumn('tx_seq', 'bigint', (c) => c.notNull().references('ledger_transactions.seq'))
    .addColumn('idx', 'smallint', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_entries_pk', ['tx_seq', 'idx'])
    .execute();
  await sql`CREATE INDEX ledger_entries_by_account ON ledger_entries (account, tx_seq)`.execute(db);

  await db.schema
    .createTable('ledger_markets')
    .addColumn('condition_id', 'text', (c) => c.primaryKey())
    .addColumn('token_id1', 'text', (c) => c.notNull().unique())
    .addColumn('token_id2', 'text', (c) => c.notNull().unique())
    .addColumn('payout1', 'integer')
    .addColumn('payout2', 'integer')
    .addColumn('payout_den', 'integer')
    .addColumn('resolved_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('ledger_blocks')
    .addColumn('number', 'bigint', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('parent_hash', 'text', (c) => c.notNull())
    .addColumn('tx_count', 'integer', (c) => c.notNull())
    .addColumn('sealed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // One row: the chain's head. Only the sealer locks it, so ordinary ledger writes never wait on it.
  await db.schema
    .createTable('ledger_chain_head')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO ledger_chain_head (id, number, hash) VALUES (1, 0, ${`0x${'0'.repeat(64)}`})`.execute(db);

  // The journal is append-only: entries never change, and a transaction only gains its block, once.
  await sql`
    CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the ledger journal is append-only (% on ledger_entries)', TG_OP;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION ledger_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.block_number IS NULL AND NEW.block_number IS NOT NULL AND NEW.seq = OLD.seq
         AND NEW.tx_hash = OLD.tx_hash AND NEW.kind = OLD.kind AND NEW.ref = OLD.ref AND NEW.created_at = OLD.created_at THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'the ledger journal is append-only (% on ledger_transactions)', TG_OP;
    END $$`.execute(db);
  await sql`CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`.execute(db);
  await sql`CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_transactions_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ledger_chain_head', 'ledger_blocks', 'ledger_markets', 'ledger_entries', 'ledger_transactions', 'ledger_balances']) {
    await db.schema.dropTable(table).execute();
  }
  await sql`DROP FUNCTION ledger_entries_append_only()`.execute(db);
  await sql`DROP FUNCTION ledger_transactions_append_only()`.execute(db);
  await sql`DROP SEQUENCE ledger_tx_seq`.execute(db);
}
