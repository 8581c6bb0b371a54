import { sql, type Kysely } from 'kysely';

/**
 * How far the tables have projected the engine's journal (docs/engine.md "Projection: the tables"):
 * the sequence of the last journal record whose changes are in the tables, written in the same
 * transaction as them, so a record is projected exactly once. One row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE engine_projection (id smallint PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL CHECK (seq >= 0))`.execute(db);
  await sql`INSERT INTO engine_projection (id, seq) VALUES (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE engine_projection`.execute(db);
}
