import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Server } from 'socket.io';
import type { EngineReads } from '../../engine/engine-reads.ts';
import type { Clock } from '../../clock.ts';
import type { DomainEvents } from '../../events/domain-events.ts';

/**
 * The exchange's own series in /metrics (names are `pmx_*`; ops/grafana/pmx.json reads them).
 * Nothing here is called by the engine or the services: counters follow the domain-event bus,
 * gauges read the engine's state when Prometheus scrapes, and Socket.IO is observed from outside.
 */

/** What the gauges read of the engine, at scrape time. */
export interface EngineGaugeSource {
  readonly queueDepth: number;
  readonly unprojectedCommands: number;
  readonly lags: { journalRecords: number; snapshotCommands: number; snapshotAgeMs: number };
  readonly durableSeq: bigint;
  readonly usedHashFilterReady: boolean;
  readonly settlementBacklog: { trades: number; oldestMatchedAtMs: number | undefined };
  readonly reads: Pick<EngineReads, 'bookStats'>;
}

/** Batch sizes are commands per group commit: one up to the engine's 500. */
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const BATCH_SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** The statuses a trade moves through (EXTENSIONS.md section 8); anything else is counted as `other`. */
const TRADE_STATUSES = new Set(['MATCHED', 'MINED', 'CONFIRMED', 'FAILED']);

/** Counters fed by the bus (the server's own: its listeners go with it), gauges read when scraped. */
export function registerExchangeMetrics(registry: Registry, events: DomainEvents, engine: EngineGaugeSource, clock: Clock): void {
  const registers = [registry];
  const orders = new Counter({ name: 'pmx_orders_total', help: 'CreateOrders decided by order entry: accepted, or refused with the error code', labelNames: ['result', 'code'] as const, registers });
  const matches = new Counter({ name: 'pmx_matches_total', help: 'Fills between a taker and a maker order (one trade each)', registers });
  const trades = new Counter({ name: 'pmx_trade_updates_total', help: 'Trades reaching a status (MATCHED, MINED, CONFIRMED, FAILED)', labelNames: ['status'] as const, registers });
  const batchSize = new Histogram({ name: 'pmx_engine_batch_commands', help: 'Commands per engine batch (group commit)', buckets: BATCH_SIZE_BUCKETS, registers });
  const batchSeconds = new Histogram({ name: 'pmx_engine_batch_duration_seconds', help: 'Engine batch time from start to commit', buckets: BATCH_SECONDS_BUCKETS, registers });
  const roundSeconds = new Histogram({ name: 'pmx_engine_settlement_batch_duration_seconds', help: 'Engine batches that ran a settlement round, from start to commit: how long settlement holds the queue', buckets: BATCH_SECONDS_BUCKETS, registers });
  new Gauge({ name: 'pmx_engine_queue_depth', help: 'Commands waiting for an engine batch', registers, collect() { this.set(engine.queueDepth); } });
  new Gauge({ name: 'pmx_engine_projection_lag_commands', help: 'Commands durable in the engine journal and not in the tables yet', registers, collect() { this.set(engine.unprojectedCommands); } });
  new Gauge({ name: 'pmx_engine_journal_lag_records', help: 'Engine journal records applied and not durable yet (appends in flight)', registers, collect() { this.set(engine.lags.journalRecords); } });
  new Gauge({ name: 'pmx_engine_snapshot_lag_commands', help: 'Commands journaled since the last engine snapshot written (what a restart replays)', registers, collect() { this.set(engine.lags.snapshotCommands); } });
  new Gauge({ name: 'pmx_engine_snapshot_age_seconds', help: 'Time since the last engine snapshot written', registers, collect() { this.set(engine.lags.snapshotAgeMs / 1000); } });
  new Gauge({ name: 'pmx_engine_journal_seq', help: 'The last durable record of the engine journal', registers, collect() { this.set(Number(engine.durableSeq)); } });
  new Gauge({ name: 'pmx_engine_used_hash_filter_ready', help: '1 once the filter of used order hashes is built (until then every new order hash is looked up in the store)', registers, collect() { this.set(engine.usedHashFilterReady ? 1 : 0); } });
  new Gauge({ name: 'pmx_settlement_unsettled_trades', help: 'Trades matched and not yet CONFIRMED or FAILED', registers, collect() { this.set(engine.settlementBacklog.trades); } });
  new Gauge({
    name: 'pmx_settlement_oldest_unsettled_seconds', help: 'Time since the oldest trade not yet CONFIRMED or FAILED was matched (0 with none)', registers,
    collect() {
      const { oldestMatchedAtMs } = engine.settlementBacklog;
      this.set(oldestMatchedAtMs === undefined ? 0 : Math.max(0, clock.nowMs() - oldestMatchedAtMs) / 1000);
    },
  });
  const bookGauge = (name: string, help: string, read: (stats: ReturnType<EngineReads['bookStats']>) => number) =>
    new Gauge({ name, help, registers, collect() { this.set(read(engine.reads.bookStats())); } });
  bookGauge('pmx_books', 'Order books held by the engine (one per tradable market)', (s) => s.books);
  bookGauge('pmx_book_levels', 'Price levels over every book (bids and asks, outcome-1 terms)', (s) => s.levels);
  bookGauge('pmx_open_orders', 'Open orders (resting or speed-bumped)', (s) => s.openOrders);

  events.subscribe('order-decided', ({ accepted, code }) => orders.inc({ result: accepted ? 'accepted' : 'refused', code: code ?? '' }));
  events.subscribe('engine-batch', ({ commands, trades: matched, durationMs, settled }) => {
    batchSize.observe(commands);
    batchSeconds.observe(durationMs / 1000);
    if (settled) roundSeconds.observe(durationMs / 1000);
    if (matched > 0) matches.inc(matched);
  });
  events.subscribe('trade-update', ({ trade }) => {
    const status = String((trade as { status?: unknown }).status);
    trades.inc({ status: TRADE_STATUSES.has(status) ? status : 'other' });
  });
}

/**
 * Socket.IO connections per namespace (read when scraped) and messages in and out. Labels are
 * namespaces and directions only: a client chooses its event names, so they are not labels.
 */
export function registerSocketMetrics(registry: Registry, io: Server, namespaces: readonly string[]): void {
  const registers = [registry];
  new Gauge({
    name: 'pmx_socket_connections', help: 'Open Socket.IO connections on this node', labelNames: ['namespace'] as const, registers,
    collect() {
      for (const name of namespaces) this.set({ namespace: name }, io.of(name).sockets.size);
    },
  });
  const messages = new Counter({ name: 'pmx_socket_messages_total', help: 'Socket.IO messages received from and sent to clients', labelNames: ['namespace', 'direction'] as const, registers });
  for (const name of namespaces) {
    io.of(name).on('connection', (socket) => {
      socket.onAny(() => messages.inc({ namespace: name, direction: 'in' }));
      socket.onAnyOutgoing(() => messages.inc({ namespace: name, direction: 'out' }));
    });
  }
}
