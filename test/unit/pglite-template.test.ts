import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { migrations } from '../../src/store/migrations/index.ts';
import { templateFor, writePgliteTemplate } from '../../src/store/pglite-template.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe('the embedded database template', { skip: storeIndependent('the embedded store') }, () => {
  let dir: string;
  let template: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pmx-template-'));
    template = join(dir, 'template.tar.gz');
    await writePgliteTemplate(template);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a new data directory migrated and empty of any exchange, and is never loaded over an existing one', async () => {
    const dataDir = join(dir, 'data');
    const store = await openStore({ dataDir, pgliteTemplate: template });
    try {
      assert.deepEqual(await migrateToLatest(store.db), [], 'every migration is already applied');
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      assert.deepEqual(applied.rows.map((row) => row.name), Object.keys(migrations).sort());
      const settings = await sql<{ n: number }>`select count(*)::int as n from settings`.execute(store.db);
      assert.equal(settings.rows[0]!.n, 0, 'no keys or ids of any exchange are in the template');
      await sql`insert into settings (key, value) values ('probe', 'kept')`.execute(store.db);
    } finally {
      await store.close();
    }
    assert.equal(templateFor(dataDir, template), undefined, 'a directory with a database is not a new one');
    const reopened = await openStore({ dataDir, pgliteTemplate: template });
    try {
      const probe = await sql<{ value: string }>`select value from settings where key = 'probe'`.execute(reopened.db);
      assert.deepEqual(probe.rows, [{ value: 'kept' }]);
    } finally {
      await reopened.close();
    }
  });

  it('starts every in-memory database, which keeps nothing between opens, from it', async () => {
    assert.ok(templateFor('memory://', template), 'an in-memory database is always a new one');
    for (let open = 0; open < 2; open++) {
      const store = await openStore({ dataDir: 'memory://', pgliteTemplate: template });
      try {
        assert.deepEqual(await migrateToLatest(store.db), [], 'every migration is already applied');
        const settings = await sql<{ n: number }>`select count(*)::int as n from settings`.execute(store.db);
        assert.equal(settings.rows[0]!.n, 0);
        await sql`insert into settings (key, value) values ('probe', 'gone at close')`.execute(store.db);
      } finally {
        await store.close();
      }
    }
  });
});
