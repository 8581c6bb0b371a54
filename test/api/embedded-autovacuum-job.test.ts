import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The embedded store's autovacuum as the server runs it: a job the clock ticks, counted in /metrics. */
describe('autovacuum job of the embedded store', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const metrics = async () => String((await get(`${server.url}/metrics`)).body);

  it('runs with the clock on PGlite, vacuums every table due and counts each pass; PostgreSQL runs its own', async () => {
    if (server.ctx.store.kind === 'postgres') {
      assert.doesNotMatch(await metrics(), /pmx_store_autovacuum/, 'PostgreSQL vacuums itself');
      return;
    }
    const { db } = server.ctx.store;
    // 1,000 dead rows in a table of none: more than any table the boot left behind.
    await sql`insert into settings (key, value) select 'churn-' || g, 'x' from generate_series(1, 1000) g`.execute(db);
    await sql`delete from settings where key like 'churn-%'`.execute(db);
    // A backend reports its table counts at most once a second; this makes them visible now.
    await sql`select pg_stat_force_next_flush()`.execute(db);
    assert.match(await metrics(), /^pmx_store_autovacuum_duration_seconds_count 0$/m);

    assert.equal((await post(server.api('/admin/clock'), { advanceMs: 60_000 }, server.adminHeaders)).status, 200);

    const vacuumed = await sql<{ dead: number; vacuums: number }>`select n_dead_tup::int as dead, vacuum_count::int as vacuums from pg_stat_user_tables where relname = 'settings'`.execute(db);
    assert.deepEqual(vacuumed.rows, [{ dead: 0, vacuums: 1 }]);
    // One tick treats every table due: settings, and whatever else the boot left due.
    const text = await metrics();
    const byReason = [...text.matchAll(/^pmx_store_autovacuum_total\{reason="([a-z-]+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])] as const);
    assert.ok(byReason.some(([reason, count]) => reason === 'dead-rows' && count >= 1), text);
    const total = byReason.reduce((sum, [, count]) => sum + count, 0);
    assert.match(text, new RegExp(`^pmx_store_autovacuum_duration_seconds_count ${total}$`, 'm'), 'every pass timed');
  });
});
