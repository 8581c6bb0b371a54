import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe("PGlite on its own thread (the embedded store's driver)", { skip: storeIndependent('the embedded store') }, () => {
  let dir: string;
  let store: Store;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pmx-pglite-thread-'));
    store = await openStore({ dataDir: join(dir, 'data') });
    await sql`CREATE TABLE probe (id int PRIMARY KEY, amount int8, at timestamptz)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns int8 as bigint and timestamptz as Date, and takes them as parameters', async () => {
    const at = new Date('2026-11-28T12:00:00.000Z');
    await sql`INSERT INTO probe VALUES (1, ${2n ** 62n}, ${at})`.execute(store.db);
    const { rows } = await sql<{ amount: bigint; at: Date }>`SELECT amount, at FROM probe WHERE id = 1`.execute(store.db);
    assert.deepEqual(rows, [{ amount: 2n ** 62n, at }]);
  });

  it("carries PostgreSQL's error fields across the thread (code, constraint), as callers test them", async () => {
    await assert.rejects(sql`INSERT INTO probe VALUES (1, 0, now())`.execute(store.db), (error: Error & { code?: string; constraint?: string }) => {
      assert.equal(error.code, '23505');
      assert.equal(error.constraint, 'probe_pkey');
      assert.match(error.message, /duplicate key/);
      return true;
    });
  });

  it('gives a transaction the one connection until it ends: a statement from outside waits for its commit', async () => {
    const events: string[] = [];
    let outside: Promise<unknown> | undefined;
    await store.db.transaction().execute(async (tx) => {
      await sql`INSERT INTO probe VALUES (2, 5, now())`.execute(tx);
      outside = sql<{ n: string }>`SELECT count(*)::text AS n FROM probe WHERE id = 2`.execute(store.db).then(({ rows }) => events.push(`outside saw ${rows[0]!.n}`));
      // Several turns of the event loop: the outside statement has been sent if it is going to be.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      await sql`UPDATE probe SET amount = 6 WHERE id = 2`.execute(tx);
      events.push('transaction done');
    });
    await outside;
    assert.deepEqual(events, ['transaction done', 'outside saw 1']);
  });

  it('rolls a failed transaction back, and the connection serves the next statement', async () => {
    await assert.rejects(store.db.transaction().execute(async (tx) => {
      await sql`INSERT INTO probe VALUES (3, 1, now())`.execute(tx);
      await sql`INSERT INTO probe VALUES (3, 1, now())`.execute(tx);
    }));
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM probe WHERE id = 3`.execute(store.db);
    assert.deepEqual(rows, [{ n: '0' }]);
  });
});
