import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { Counter, Histogram, type Metric } from 'prom-client';
import type { Db } from './database.ts';

/**
 * Autovacuum for the embedded store. PGlite runs PostgreSQL as one single-user backend, so no
 * autovacuum launcher ever starts: nothing removes dead rows and their index entries, nothing
 * gathers the planner's statistics, and nothing freezes old rows before transaction ids wrap
 * around (after about two billion transactions PostgreSQL would see committed rows as in the
 * future). This decides as autovacuum decides, with PostgreSQL's own settings
 * (`autovacuum_vacuum_threshold` and `_scale_factor`, the insert and analyze ones,
 * `autovacuum_freeze_max_age`), over every table, the system catalogues included. On PostgreSQL
 * the server's autovacuum does this, and the exchange never calls it.
 *
 * Like autovacuum, it looks once a minute (`autovacuum_naptime`) and then treats every table due,
 * one pass a table, the most due first (wraparound first, then dead rows, then new rows, then
 * stale statistics). A VACUUM holds PGlite's one connection while it runs, and every statement
 * waits for it; the statements queued meanwhile run between two passes. Statistics are refreshed
 * for the exchange's tables only: the catalogues change only with migrations.
 */

export type AutovacuumReason = 'wraparound' | 'dead-rows' | 'inserted-rows' | 'statistics';

export interface AutovacuumPass {
  /** `schema.table`. */
  readonly table: string;
  readonly reason: AutovacuumReason;
  /**
   * VACUUM (FREEZE, ANALYZE) against wraparound (every row frozen, so the table's age drops to
   * nothing, where autovacuum's own pass freezes only rows older than vacuum_freeze_min_age),
   * ANALYZE alone for stale statistics, VACUUM (ANALYZE) otherwise.
   */
  readonly statement: 'freeze' | 'vacuum' | 'analyze';
  /** The table's dead rows when it was chosen. */
  readonly deadRows: number;
  readonly durationMs: number;
}

/** Overrides of PostgreSQL's settings, for a test that cannot wait two hundred million transactions. */
export interface AutovacuumLimits {
  freezeMaxAge?: number;
}

interface DueTable {
  schema: string;
  table: string;
  reason: AutovacuumReason;
  dead_rows: number;
}

/** A pass that holds the store this long is logged at info (the others at debug). */
const LONG_PASS_MS = 1_000;
/** Passes of one tick at most: a table that stayed due after its pass is not treated for ever. */
const PASSES_PER_TICK = 200;

/** The background job (src/background-jobs.ts): every table due, each pass logged and counted in /metrics. */
export function createEmbeddedAutovacuum(db: Db, logger: FastifyBaseLogger): { tick(): Promise<AutovacuumPass[]>; metrics: Metric[] } {
  const passes = new Counter({ name: 'pmx_store_autovacuum_total', help: 'Tables the embedded store vacuumed or analyzed (PGlite runs no autovacuum), by reason', labelNames: ['reason'] as const, registers: [] });
  const seconds = new Histogram({ name: 'pmx_store_autovacuum_duration_seconds', help: "How long each of those held the embedded store's one connection", buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [] });
  return {
    metrics: [passes, seconds],
    async tick() {
      const done: AutovacuumPass[] = [];
      for (let pass = await vacuumMostDueTable(db); pass; pass = done.length < PASSES_PER_TICK ? await vacuumMostDueTable(db) : undefined) {
        done.push(pass);
        passes.inc({ reason: pass.reason });
        seconds.observe(pass.durationMs / 1000);
        const line = `autovacuum: ${pass.statement} ${pass.table} (${pass.reason}, ${pass.deadRows} dead rows) in ${Math.round(pass.durationMs)} ms`;
        if (pass.durationMs >= LONG_PASS_MS) logger.info(line);
        else logger.debug(line);
      }
      return done;
    },
  };
}

/** Vacuums (or analyzes) the table most due, if any is; undefined when none is. */
export async function vacuumMostDueTable(db: Db, limits: AutovacuumLimits = {}): Promise<AutovacuumPass | undefined> {
  const due = await mostDueTable(db, limits);
  if (!due) return undefined;
  const statement = due.reason === 'wraparound' ? 'freeze' : due.reason === 'statistics' ? 'analyze' : 'vacuum';
  const table = sql.id(due.schema, due.table);
  const startedMs = performance.now();
  await { freeze: sql`vacuum (freeze, analyze) ${table}`, vacuum: sql`vacuum (analyze) ${table}`, analyze: sql`analyze ${table}` }[statement].execute(db);
  return { table: `${due.schema}.${due.table}`, reason: due.reason, statement, deadRows: due.dead_rows, durationMs: performance.now() - startedMs };
}

/**
 * Autovacuum's thresholds (PostgreSQL's `relation_needs_vacanalyze`): a base plus a share of the
 * table's estimated rows (`reltuples`, -1 until the first VACUUM or ANALYZE, counted as none).
 * Among tables due for the same reason, the oldest goes first against wraparound, the one with
 * the most dead rows otherwise.
 */
async function mostDueTable(db: Db, limits: AutovacuumLimits): Promise<DueTable | undefined> {
  const freezeMaxAge = limits.freezeMaxAge === undefined ? sql`current_setting('autovacuum_freeze_max_age')::int8` : sql`${limits.freezeMaxAge}::int8`;
  const result = await sql<DueTable>`
    with tables as (
      select n.nspname as schema, c.relname as table, age(c.relfrozenxid) as xid_age, greatest(c.reltuples, 0) as rows,
        coalesce(s.n_dead_tup, 0) as dead_rows, coalesce(s.n_ins_since_vacuum, 0) as inserted_rows, coalesce(s.n_mod_since_analyze, 0) as modified_rows
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_stat_all_tables s on s.relid = c.oid
      where c.relkind in ('r', 'm') and c.relpersistence = 'p'
    ), reasons as (
      select schema, "table", dead_rows, xid_age, case
        when xid_age > ${freezeMaxAge} then 'wraparound'
        when dead_rows > current_setting('autovacuum_vacuum_threshold')::float8 + current_setting('autovacuum_vacuum_scale_factor')::float8 * rows then 'dead-rows'
        when inserted_rows > current_setting('autovacuum_vacuum_insert_threshold')::float8 + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * rows then 'inserted-rows'
        when modified_rows > current_setting('autovacuum_analyze_threshold')::float8 + current_setting('autovacuum_analyze_scale_factor')::float8 * rows and schema <> 'pg_catalog' then 'statistics'
      end as reason
      from tables
    )
    select schema, "table", reason, dead_rows::float8 as dead_rows from reasons
    where reason is not null
    order by array_position(array['wraparound', 'dead-rows', 'inserted-rows', 'statistics'], reason),
      case when reason = 'wraparound' then xid_age end desc nulls last, dead_rows desc
    limit 1`.execute(db);
  return result.rows[0];
}
