// The statements every engine batch sends, prepared once per PostgreSQL connection and executed
// by name after that (src/store/prepared-statements.ts); on PGlite the same text runs as it is.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { activeApiKeysAmong } from '../../src/store/api-keys-repository.ts';
import type { Store } from '../../src/store/database.ts';
import { endedSessionsAmong, insertEndedSession } from '../../src/store/ended-sessions-repository.ts';
import { prepared } from '../../src/store/prepared-statements.ts';
import { openTestStore } from '../helpers/database.ts';

describe('prepared statements', () => {
  let store: Store;
  before(async () => {
    store = await openTestStore();
  });
  after(() => store?.close());

  it('bind new values at every execution of one prepared text', async () => {
    const double = (n: number) => prepared(sql<{ doubled: number }>`SELECT ${n}::int * 2 AS doubled`).execute(store.db);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 21]) assert.equal((await double(n)).rows[0]!.doubled, n * 2);
  });

  it('are executed by name on PostgreSQL, once prepared on the connection', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, async () => {
    await store.db.connection().execute(async (connection) => {
      const marked = () => prepared(sql`SELECT 'one connection' AS what`).execute(connection);
      await marked();
      await marked();
      const { rows } = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(connection);
      const names = rows.filter((row) => row.statement.includes('one connection')).map((row) => row.name);
      assert.equal(names.length, 1);
      assert.match(names[0]!, /^pmx_/);
    });
  });

  it("answer the batch's credential checks for any number of ids with one text", async () => {
    const ended = [randomUUID(), randomUUID()];
    const never = randomUUID();
    for (const id of ended) await insertEndedSession(store.db, id, new Date(Date.now() + 60_000), new Date());
    assert.deepEqual(await endedSessionsAmong(store.db, [never]), new Set());
    assert.deepEqual(await endedSessionsAmong(store.db, [ended[0]!, never, ended[1]!]), new Set(ended));
    assert.deepEqual(await activeApiKeysAmong(store.db, [randomUUID(), randomUUID(), randomUUID()]), new Set());
  });
});
