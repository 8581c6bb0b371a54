import { sql, type Kysely } from 'kysely';

/**
 * `pmx_require(ok, sqlstate, message)`: raises `message` with `sqlstate` unless `ok`, else true.
 * A statement that must write everything or nothing outside a transaction (a journal append,
 * src/store/engine-journal-repository.ts; a projection, engine-projection-writes.ts) checks its own parts with it: the error aborts the statement,
 * so none of its parts is written. VOLATILE (the default), so it is called for every row and
 * never folded into a constant at plan time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION pmx_require(ok boolean, sqlstate text, message text) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF ok IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message;
      END IF;
      RETURN true;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION pmx_require(boolean, text, text)`.execute(db);
}
