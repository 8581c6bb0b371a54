import { sql, type Kysely } from 'kysely';

/**
 * The engine's journal and its snapshots (src/engine/README.md): every state change of the engine
 * as one record per batch, appended in order and hash-chained, on both stores; and the engine's
 * state at some journal positions, in parts of a few megabytes, so that a restart loads one and
 * replays the records after it. Records at or below the oldest snapshot kept are pruned.
 *
 * Ledger transactions are numbered by the engine's state now, not by a sequence of the store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE engine_journal (seq bigint PRIMARY KEY CHECK (seq > 0), at timestamptz NOT NULL, hash text NOT NULL, record text NOT NULL)`.execute(db);
  await sql`CREATE TABLE engine_snapshots (
    seq bigint PRIMARY KEY CHECK (seq >= 0),
    hash text NOT NULL,
    state_hash text NOT NULL,
    parts integer NOT NULL,
    created_at timestamptz NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE engine_snapshot_parts (
    seq bigint NOT NULL REFERENCES engine_snapshots (seq) ON DELETE CASCADE,
    part integer NOT NULL,
    data text NOT NULL,
    PRIMARY KEY (seq, part)
  )`.execute(db);
  await sql`DROP SEQUENCE ledger_tx_seq`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE ledger_tx_seq`.execute(db);
  await sql`SELECT setval('ledger_tx_seq', COALESCE((SELECT max(seq) FROM ledger_transactions), 0) + 1, false)`.execute(db);
  await sql`DROP TABLE engine_snapshot_parts`.execute(db);
  await sql`DROP TABLE engine_snapshots`.execute(db);
  await sql`DROP TABLE engine_journal`.execute(db);
}
