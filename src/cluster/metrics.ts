import { Counter, Gauge, type Registry } from 'prom-client';
import type { Leadership } from './leadership.ts';

/**
 * Several nodes in /metrics: this node's role, how often the engine came to or left it, and the
 * commands (orders and balance moves) it passed on to the engine's node (by outcome).
 */
export function registerClusterMetrics(registry: Registry, leadership: Leadership): { forwarded(outcome: 'answered' | 'unavailable'): void } {
  new Gauge({
    name: 'pmx_engine_leader',
    help: '1 while this node runs the matching engine, else 0',
    registers: [registry],
    collect() {
      this.set(leadership.role === 'leader' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'pmx_engine_leadership_changes',
    help: 'Times the matching engine came to this node or left it since the process started',
    registers: [registry],
    collect() {
      this.set(leadership.changes);
    },
  });
  const forwarded = new Counter({
    name: 'pmx_forwarded_commands_total',
    help: "Commands (orders, and requests that move balances) this node passed on to the engine's node: answered by it, or refused here with 503",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { forwarded: (outcome) => forwarded.inc({ outcome }) };
}
