import { pino } from 'pino';
import { createManualClock } from '../../src/clock.ts';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { auditJournal } from '../../src/engine/journal-audit.ts';
import { databaseEngineStore, type EngineStore } from '../../src/engine/journal/journal-store.ts';
import { replayRecords } from '../../src/engine/recovery.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/engine/state/snapshot-codec.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import type { MarketTradingInfo } from '../../src/engine/types.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { auditExchange } from '../../src/cli/audit-exchange.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from './database.ts';
import { FaultyStore, type FaultPoint } from './faulty-store.ts';
import { seededRandom } from './seeded-random.ts';
import { MARKETS, opArbitrary, USERS, userIdOf, WorkloadCommands } from './engine-workload.ts';
import fc from 'fast-check';

/** What one seed of the simulation found: every check's failures (none: it passed). */
export interface SimulationReport {
  seed: number;
  steps: number;
  crashes: number;
  faults: FaultPoint[];
  acknowledged: number;
  records: bigint;
  violations: string[];
}

/** Of each store call, how often a fault strikes it (before or after it reached the store). */
const FAULT_RATE = 0.02;
/** Of each step, how often the process holding the engine is killed after it. */
const CRASH_RATE = 0.08;

/**
 * The deterministic simulation of the engine (README.md "The audit"; TigerBeetle's way): a seeded
 * random workload over the real engine, projector and snapshots on a real store, with faults put
 * between them (`FaultyStore`): appends that fail before or after they landed, projections and
 * snapshots cut short, and kills of the whole process at any moment. After every kill a new
 * engine recovers from the store, and the simulation checks that every acknowledged order is
 * there and that the recovered state has the hash of an independent replay of the journal; at the
 * end, that `pmx audit` (the journal against its chain, snapshots and tables; the ledger) is clean.
 */
export async function simulate(seed: number, { steps = 40 }: { steps?: number } = {}): Promise<SimulationReport> {
  const random = seededRandom(seed);
  const store = await openTestStore();
  const report: SimulationReport = { seed, steps, crashes: 0, faults: [], acknowledged: 0, records: 0n, violations: [] };
  try {
    await seedCatalogue(store);
    const clock = createManualClock(1_764_000_000_000);
    const workload = new WorkloadCommands();
    const directory = marketsOf(workload);
    const acknowledged = new Set<string>();
    const newEngine = ({ faults = true } = {}) => {
      const faulty = new FaultyStore(databaseEngineStore(store.db, { notify: false }), () => faults && random() < FAULT_RATE);
      const engine = new MatchingEngine({
        db: store.db, store: faulty, clock, events: new DomainEvents(), markets: directory, logger: pino({ level: 'silent' }),
        bookFrameMs: 0, settlementBlockMs: 3_600_000, snapshotPolicy: { everyCommands: 40, everyMs: Number.MAX_SAFE_INTEGER },
      });
      return { engine, faulty };
    };
    let current = newEngine();
    await startRetrying(current.engine);
    for (const command of workload.publish()) await send(current.engine, command, directory).catch(() => undefined);
    const ops = fc.sample(fc.array(opArbitrary, { minLength: 1, maxLength: 6 }), { numRuns: steps, seed });
    for (const group of ops) {
      const commands: EngineCommand[] = [];
      for (const op of group) {
        const made = workload.toCommands(op, [...acknowledged], Math.floor(clock.nowMs() / 1000));
        clock.advance(made.advanceMs);
        commands.push(...made.commands);
      }
      const answers = await Promise.allSettled(commands.map((command) => send(current.engine, command, directory)));
      for (const answer of answers) if (answer.status === 'fulfilled' && answer.value) acknowledged.add(answer.value);
      if (random() < CRASH_RATE) {
        report.crashes += 1;
        current.faulty.kill();
        report.faults.push(...current.faulty.injected);
        await current.engine.stop().catch(() => {});
        current = newEngine();
        await startRetrying(current.engine);
        await checkRecovered(current.engine, store, acknowledged, report);
      }
    }
    await current.engine.settle().catch(() => {});
    await current.engine.stop();
    report.faults.push(...current.faulty.injected);
    // The next start, without faults: it recovers, and writes what a fault kept from the tables
    // (a stop whose last projection failed leaves that to it), before the audit reads them.
    const last = newEngine({ faults: false });
    await last.engine.start();
    await checkRecovered(last.engine, store, acknowledged, report);
    await last.engine.stop();
    report.acknowledged = acknowledged.size;
    const journal = await auditJournal(store.db, prunedOnceUnderTheAudit(databaseEngineStore(store.db, { notify: false })));
    report.records = BigInt(journal.counts.records);
    for (const v of journal.violations) report.violations.push(`journal audit while pruned ${v.invariant}: ${v.detail}`);
    const audit = await auditExchange(store.db);
    for (const v of audit.violations) report.violations.push(`audit ${v.invariant}: ${v.detail}`);
  } finally {
    await store.close();
  }
  return report;
}

/** Sends one command through the engine's API; the id of the order a place made, when acknowledged. */
export async function send(engine: MatchingEngine, command: EngineCommand, directory: ReturnType<typeof marketsOf>): Promise<string | undefined> {
  switch (command.kind) {
    case 'place': {
      const placed = await engine.place(command.order);
      return placed.ok ? placed.order.id : placed.order?.id;
    }
    case 'cancel':
      await engine.cancel(command.userId, command.orderId);
      return undefined;
    case 'cancel-markets':
      await engine.cancelInMarkets(command.userId, command.marketIds);
      return undefined;
    case 'tick':
      await engine.tick();
      return undefined;
    case 'settle':
      await engine.settle();
      return undefined;
    case 'market':
      directory.put(command.info);
      await engine.refreshMarket(command.info.id);
      return undefined;
    case 'credit':
      await engine.credit(command);
      return undefined;
    case 'transfer':
      await engine.transfer(command);
      return undefined;
    case 'split':
      await engine.split(command);
      return undefined;
    case 'withdraw':
      await engine.withdraw(command);
      return undefined;
    case 'merge':
      await engine.merge(command);
      return undefined;
    case 'redeem':
      await engine.redeem(command);
      return undefined;
    case 'oracle':
      await engine.oracle(command.marketId, command.command, command.terms);
      return undefined;
  }
}

/**
 * The store as an audit finds it while an engine runs: once the audit has started replaying, a
 * snapshotter writes a snapshot half-way along the journal, then deletes the older snapshots and
 * the records up to the new one (README.md "Snapshots"). The audit must start again from what is
 * kept, not report the pruned records missing.
 */
function prunedOnceUnderTheAudit(store: EngineStore): EngineStore {
  let pruned = false;
  return {
    ...store,
    async readAfter(seq, limit) {
      if (!pruned) {
        pruned = true;
        await snapshotHalfWayAndPrune(store);
      }
      return store.readAfter(seq, limit);
    },
  };
}

async function snapshotHalfWayAndPrune(store: EngineStore): Promise<void> {
  const snapshots = await store.listSnapshots();
  const oldest = snapshots.reduce((a, b) => (a.seq < b.seq ? a : b));
  // As the engine's snapshotter does, only records the tables have reached are pruned.
  const head = (await store.head())?.seq ?? 0n;
  const projected = await store.projectedSeq();
  const halfWay = oldest.seq + ((head < projected ? head : projected) - oldest.seq) / 2n;
  if (halfWay <= oldest.seq) return;
  const state = decodeSnapshot(await store.readSnapshot(oldest.seq));
  await replayRecords(store, state, undefined, halfWay);
  // The engine may have written a snapshot at that very record already: it is then the one kept.
  if (!snapshots.some((s) => s.seq === state.seq)) {
    const encoded = encodeSnapshot(state);
    await store.writeSnapshot({ seq: state.seq, hash: state.hash, stateHash: encoded.stateHash, parts: encoded.chunks.length }, encoded.chunks, 0);
  }
  await store.deleteSnapshots(snapshots.filter((s) => s.seq < state.seq).map((s) => s.seq));
  await store.prune(state.seq);
}

/** A start that a fault cut short is tried again, as a supervisor restarts a process. */
async function startRetrying(engine: MatchingEngine): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await engine.start();
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await engine.stop().catch(() => {});
    }
  }
}

/**
 * After a recovery: every acknowledged order is known, and the state is the journal's replay. The
 * engine may have applied records since (its timers, the markets it learnt), so the replay goes to
 * the engine's own position once the journal holds it.
 */
async function checkRecovered(engine: MatchingEngine, store: Store, acknowledged: Set<string>, report: SimulationReport): Promise<void> {
  for (const id of acknowledged) if (!(await engine.findOrder(id))) report.violations.push(`acknowledged order ${id} lost after crash ${report.crashes}`);
  const journal = databaseEngineStore(store.db, { notify: false });
  for (let attempt = 1; ; attempt++) {
    const recovered = engine.stateHash();
    // A record of the engine's still on its way to the journal: wait for it (or for its failure, and look again).
    for (let wait = 0; wait < 100 && ((await journal.head())?.seq ?? 0n) < recovered.seq; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    const oldest = (await journal.listSnapshots()).at(-1)!;
    const replayed = decodeSnapshot(await journal.readSnapshot(oldest.seq));
    await replayRecords(journal, replayed, undefined, recovered.seq);
    if (replayed.seq === recovered.seq) {
      const expected = encodeSnapshot(replayed).stateHash;
      if (recovered.stateHash !== expected) report.violations.push(`after crash ${report.crashes} the recovered state ${recovered.stateHash} at ${recovered.seq} is not the replay's ${expected}`);
      return;
    }
    if (attempt === 3) {
      report.violations.push(`after crash ${report.crashes} the engine is at record ${recovered.seq}, which the journal (at ${replayed.seq}) never reached`);
      return;
    }
  }
}

/** The workload's users, events and markets as the catalogue would hold them. */
export async function seedCatalogue(store: Store): Promise<void> {
  const now = new Date();
  await store.db.insertInto('users').values(USERS.map((account) => ({ id: userIdOf(account), address: account, proxy_wallet: account }))).execute();
  for (const eventId of new Set(MARKETS.map((m) => m.eventId))) {
    const negRisk = MARKETS.some((m) => m.eventId === eventId && m.negRisk);
    await store.db.insertInto('events').values({
      id: eventId, slug: `event-${eventId.slice(-4)}`, name: 'Simulated event', description: '', icon: '', status: 'ACTIVE', start_date: now, end_date: null,
      protected: false, single: false, neg_risk: negRisk, series_layout: false, winning_market_id: null, fee_bips: null, reward_base_units: 0n,
      proposal_bond_base_units: 0n, liveness_seconds: 4, order_fee_rate_bps: 100, passive_order_fee_rate_bps: 20, ancillary_data: '', metadata: null,
      template_id: null, created_by: userIdOf(USERS[0]!), created_at: now, updated_at: now,
    }).execute();
  }
  await store.db.insertInto('markets').values(MARKETS.map((m, i) => ({
    id: m.id, event_id: m.eventId, position: i, slug: `market-${i}`, name: `Market ${i}`, description: null, icon: '', status: 'ACTIVE' as const, start_date: now,
    end_date: null, neg_risk: m.negRisk, tick_size: m.tickSize, order_fee_rate_bps: m.orderFeeRateBps, passive_order_fee_rate_bps: m.passiveOrderFeeRateBps,
    outcome1: m.outcome1, outcome2: m.outcome2, condition_id: m.conditionId, question_id: m.conditionId, token_id1: m.tokenId1, token_id2: m.tokenId2,
    ancillary_data: '', proposed_at: null, proposed_price: null, display_timezone: null, question_index: null,
    created_by: userIdOf(USERS[0]!), created_at: now, updated_at: now,
  }))).execute();
}

/** The catalogue's side of the engine (src/engine/market-directory.ts) over the workload's markets. */
export function marketsOf(workload: WorkloadCommands) {
  const markets = new Map<string, MarketTradingInfo>(workload.markets.map((m) => [m.id, { ...m }]));
  return {
    put: (info: MarketTradingInfo) => markets.set(info.id, { ...info }),
    load: async (id: string) => markets.get(id),
    loadActive: async () => [...markets.values()],
    loadPublished: async () => [...markets.values()],
  };
}

