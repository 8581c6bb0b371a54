import { pino } from 'pino';
import { createManualClock } from '../../src/clock.ts';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { databaseEngineStore, type EngineStore } from '../../src/engine/journal/journal-store.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import type { Store } from '../../src/store/database.ts';
import { WorkloadCommands } from './engine-workload.ts';
import { marketsOf, seedCatalogue, send } from './simulation.ts';

/**
 * The journal's store with one of its writes held at a gate from `hold` until `release`: `append`
 * (a record stays in flight, applied and not durable) or `project` (records stay durable and
 * unprojected).
 */
function gatedStore(real: EngineStore, held: 'append' | 'project') {
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  const journal: EngineStore = held === 'append'
    ? { ...real, append: async (records) => { await gate?.promise; return real.append(records); } }
    : { ...real, project: async (merged) => { await gate?.promise; return real.project(merged); } };
  return {
    journal,
    hold() {
      let open!: () => void;
      gate = { promise: new Promise<void>((resolve) => { open = resolve; }), open };
    },
    release() {
      gate?.open();
      gate = undefined;
    },
  };
}

/**
 * A leading engine on a seeded test store, the workload's markets published, whose journal's
 * `held` write can be held at a gate (`gated`). The caller releases the gate and stops the engine.
 */
export async function startGatedEngine(store: Store, held: 'append' | 'project') {
  await seedCatalogue(store);
  const workload = new WorkloadCommands();
  const directory = marketsOf(workload);
  const gated = gatedStore(databaseEngineStore(store.db, { notify: false }), held);
  const engine = new MatchingEngine({
    db: store.db, store: gated.journal, clock: createManualClock(1_764_000_000_000), events: new DomainEvents(), markets: directory, logger: pino({ level: 'silent' }),
    bookFrameMs: 0, settlementBlockMs: 3_600_000, snapshotPolicy: { everyCommands: 1_000, everyMs: Number.MAX_SAFE_INTEGER },
  });
  await engine.start();
  try {
    for (const command of workload.publish()) await send(engine, command, directory);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  return { engine, workload, directory, gated };
}
