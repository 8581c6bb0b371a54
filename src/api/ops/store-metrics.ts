import { Counter, Gauge, type Registry } from 'prom-client';
import type { Store } from '../../store/database.ts';

/**
 * PostgreSQL's connection pool in /metrics, read when scraped: what an operator watches when the
 * database slows down or stops answering (connections all busy, callers waiting, statements cut by
 * DATABASE_TIMEOUT_MS). Nothing on PGlite, which has no pool.
 */
export function registerStoreMetrics(registry: Registry, store: Store): void {
  const pool = store.pool;
  if (!pool) return;
  const registers = [registry];
  new Gauge({
    name: 'pmx_store_connections', help: 'PostgreSQL connections of this node, busy or idle', labelNames: ['state'] as const, registers,
    collect() {
      const { connections, idle } = pool();
      this.set({ state: 'busy' }, connections - idle);
      this.set({ state: 'idle' }, idle);
    },
  });
  new Gauge({ name: 'pmx_store_waiting', help: 'Callers waiting for one of the PostgreSQL connections', registers, collect() { this.set(pool().waiting); } });
  new Counter({
    name: 'pmx_store_statements_timed_out_total', help: 'Statements with no answer from PostgreSQL within DATABASE_TIMEOUT_MS (their connection closed)', registers,
    collect() {
      this.reset();
      this.inc(pool().timedOut);
    },
  });
}
