import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.ts';
import { vacuumMostDueTable, type AutovacuumPass } from '../../src/store/embedded-autovacuum.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** PGlite only (it tests the embedded store whichever store the suite runs on): on PostgreSQL the server's own autovacuum would race the passes under test. */
describe('autovacuum of the embedded store (PGlite has no autovacuum launcher)', { skip: storeIndependent('the embedded store') }, () => {
  let store: Store;
  before(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateToLatest(store.db);
    await settle();
  });
  after(() => store.close());

  /**
   * A backend reports its table counts at most once a second (PostgreSQL's pgstat); this makes the
   * counts of the statements before it visible now instead of after a wait.
   */
  async function nextPass(limits = {}): Promise<AutovacuumPass | undefined> {
    await sql`select pg_stat_force_next_flush()`.execute(store.db);
    return vacuumMostDueTable(store.db, limits);
  }

  /** Passes until no table is due; a condition a pass does not clear would never end. */
  async function settle(limits = {}): Promise<AutovacuumPass[]> {
    const passes: AutovacuumPass[] = [];
    for (let pass = await nextPass(limits); pass; pass = await nextPass(limits)) {
      passes.push(pass);
      assert.ok(passes.length < 500, `still due after 500 passes: ${passes.slice(-3).map((p) => `${p.table} ${p.reason}`).join(', ')}`);
    }
    return passes;
  }

  async function stats(table: string) {
    await sql`select pg_stat_force_next_flush()`.execute(store.db);
    const result = await sql<{ dead: number; vacuums: number; analyzes: number }>`
      select n_dead_tup::int as dead, vacuum_count::int as vacuums, analyze_count::int as analyzes from pg_stat_user_tables where relname = ${table}`.execute(store.db);
    return result.rows[0]!;
  }

  it('vacuums a table with more dead rows than autovacuum allows, and then leaves it alone', async () => {
    await sql`create table probe_dead (id int primary key, v int)`.execute(store.db);
    await sql`insert into probe_dead select g, g from generate_series(1, 1000) g`.execute(store.db);
    await settle();
    await sql`update probe_dead set v = v + 1`.execute(store.db);
    await sql`update probe_dead set v = v + 1`.execute(store.db);
    assert.equal((await stats('probe_dead')).dead, 2000);
    const pass = await nextPass();
    assert.deepEqual(pass && { table: pass.table, reason: pass.reason, statement: pass.statement, deadRows: pass.deadRows }, { table: 'public.probe_dead', reason: 'dead-rows', statement: 'vacuum', deadRows: 2000 });
    const after = await stats('probe_dead');
    assert.equal(after.dead, 0);
    assert.equal(await nextPass(), undefined, 'nothing is due any more');
  });

  it('vacuums a table that only grew (its rows need their visibility and freezing recorded)', async () => {
    await sql`create table probe_inserted (id int primary key)`.execute(store.db);
    await sql`insert into probe_inserted select g from generate_series(1, 2000) g`.execute(store.db);
    const pass = await nextPass();
    assert.equal(pass?.table, 'public.probe_inserted');
    assert.equal(pass?.reason, 'inserted-rows');
    assert.equal((await stats('probe_inserted')).vacuums, 1);
  });

  it('only analyzes a table whose changes left few dead rows but stale statistics', async () => {
    await sql`create table probe_analyze (id int primary key, v int)`.execute(store.db);
    await sql`insert into probe_analyze select g, g from generate_series(1, 1000) g`.execute(store.db);
    await settle();
    const before = await stats('probe_analyze');
    // 160 changed rows: more than 50 + 10% of 1,000 (analyze), fewer than 50 + 20% (vacuum).
    await sql`update probe_analyze set v = -v where id <= 160`.execute(store.db);
    const pass = await nextPass();
    assert.equal(pass?.table, 'public.probe_analyze');
    assert.equal(pass?.statement, 'analyze');
    const after = await stats('probe_analyze');
    assert.equal(after.vacuums, before.vacuums, 'not vacuumed');
    assert.equal(after.analyzes, before.analyzes + 1);
  });

  it('freezes every table, the catalogues included, once its oldest transaction id is too old, before anything else', async () => {
    const freezeMaxAge = 1_000;
    for (let i = 0; i < freezeMaxAge + 100; i++) await sql`select txid_current()`.execute(store.db);
    const passes = await settle({ freezeMaxAge });
    assert.ok(passes.length > 20, `${passes.length} passes`);
    // Wraparound comes before anything else (freezing leaves dead rows in pg_statistic, treated after).
    const freezes = passes.findLastIndex((pass) => pass.reason === 'wraparound') + 1;
    assert.deepEqual(passes.slice(0, freezes).filter((pass) => pass.reason !== 'wraparound' || pass.statement !== 'freeze'), []);
    const tables = passes.slice(0, freezes).map((pass) => pass.table);
    assert.ok(tables.some((table) => table.startsWith('pg_catalog.')) && tables.includes('public.orders'), tables.join(', '));
    const oldest = await sql<{ table_age: number; database_age: number }>`
      select (select max(age(relfrozenxid)) from pg_class where relkind in ('r', 'm') and relpersistence = 'p')::int as table_age,
        (select age(datfrozenxid) from pg_database where datname = current_database())::int as database_age`.execute(store.db);
    assert.ok(oldest.rows[0]!.table_age <= freezeMaxAge, `oldest table ${oldest.rows[0]!.table_age} transactions old`);
    assert.ok(oldest.rows[0]!.database_age <= freezeMaxAge, `database ${oldest.rows[0]!.database_age} transactions old`);
  });
});
