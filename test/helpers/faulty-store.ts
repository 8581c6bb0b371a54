import type { EngineStore } from '../../src/engine/journal/journal-store.ts';

/** Where a fault can strike: before a call reaches the store (nothing written), or after it (written, but the caller hears an error). */
export type FaultPoint = `${keyof EngineStore}:${'before' | 'after'}`;

/**
 * The engine's store with faults put between the engine and a real one (the deterministic
 * simulation, test/helpers/simulation.ts): `fault` decides, from the simulation's seeded random
 * numbers, whether a call fails before or after it reached the store; `kill` is a crash (kill -9)
 * of the process that holds this engine: every call from then on fails, nothing more is written.
 */
export class FaultyStore implements EngineStore {
  private dead = false;
  readonly injected: FaultPoint[] = [];

  constructor(private readonly real: EngineStore, private readonly fault: (point: FaultPoint) => boolean) {}

  kill(): void {
    this.dead = true;
  }

  append = this.wrap('append');
  readAfter = this.wrap('readAfter');
  head = this.wrap('head');
  prune = this.wrap('prune');
  writeSnapshot = this.wrap('writeSnapshot');
  listSnapshots = this.wrap('listSnapshots');
  readSnapshot = this.wrap('readSnapshot');
  deleteSnapshots = this.wrap('deleteSnapshots');
  project = this.wrap('project');
  projectedSeq = this.wrap('projectedSeq');

  private wrap<K extends keyof EngineStore>(name: K): EngineStore[K] {
    const call = async (...args: unknown[]) => {
      this.check(`${name}:before`);
      const result = await (this.real[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      this.check(`${name}:after`);
      return result;
    };
    return call as EngineStore[K];
  }

  private check(point: FaultPoint): void {
    if (this.dead) throw new Error(`the process holding this engine was killed (${point})`);
    if (!this.fault(point)) return;
    this.injected.push(point);
    throw new Error(`injected fault ${point}`);
  }
}
