import type { EngineStore } from './journal/journal-store.ts';
import { chainHash, decodeRecord } from './journal/record-codec.ts';
import { applyRecord, type AppliedRecord } from './state/apply.ts';
import type { EngineState } from './state/engine-state.ts';
import type { RecordChanges } from './state/record-effects.ts';
import { decodeSnapshot, encodeSnapshot } from './state/snapshot-codec.ts';

/** Records read per query while replaying. */
const REPLAY_PAGE = 2_000;

export interface Recovered {
  state: EngineState;
  /** The tables' projected sequence when recovery read it. */
  projectedSeq: bigint;
  /** The changes of the records the tables lack, in order: the projector writes them first. */
  unprojected: { changes: RecordChanges; commands: number }[];
}

/**
 * The engine's state from its store (README.md "Recovery"): the newest snapshot the tables have
 * caught up with, then every record after it replayed, each checked against the hash chain. The
 * changes of the records beyond the tables' projected sequence are kept for the projector. A
 * store without any snapshot starts from `genesis` (the tables' own state), written as the
 * snapshot at position 0 before anything else.
 */
export async function recoverState(store: EngineStore, genesis: () => Promise<EngineState>, atMs: number): Promise<Recovered> {
  const projectedSeq = await store.projectedSeq();
  const state = await loadBase(store, genesis, projectedSeq, atMs);
  const unprojected: Recovered['unprojected'] = [];
  await replayRecords(store, state, (seq, applied, commands) => {
    if (seq > projectedSeq) unprojected.push({ changes: applied.changes, commands });
  });
  return { state, projectedSeq, unprojected };
}

/**
 * Applies every record after the state's position, in order, checking that each follows the one
 * before and that its hash chains from the previous one (a record tampered with, or lost from the
 * middle of the journal, stops the replay). `each` hears of every record applied; `untilSeq`
 * stops it after that record.
 */
export async function replayRecords(store: EngineStore, state: EngineState, each: (seq: bigint, applied: AppliedRecord, commands: number) => void = () => {}, untilSeq?: bigint): Promise<void> {
  for (;;) {
    const records = await store.readAfter(state.seq, REPLAY_PAGE);
    for (const stored of records) {
      if (untilSeq !== undefined && stored.seq > untilSeq) return;
      if (stored.seq !== state.seq + 1n) throw new Error(`engine journal: record ${state.seq + 1n} is missing (found ${stored.seq})`);
      const hash = chainHash(state.hash, stored.text);
      if (hash !== stored.hash) throw new Error(`engine journal: record ${stored.seq} does not chain from the one before it (hash ${stored.hash}, expected ${hash})`);
      const record = decodeRecord(stored.text);
      const applied = applyRecord(state, record);
      state.seq = stored.seq;
      state.hash = hash;
      each(stored.seq, applied, record.commands.length);
    }
    if (records.length < REPLAY_PAGE) return;
  }
}

async function loadBase(store: EngineStore, genesis: () => Promise<EngineState>, projectedSeq: bigint, atMs: number): Promise<EngineState> {
  const snapshots = await store.listSnapshots();
  const usable = snapshots.find((s) => s.seq <= projectedSeq);
  if (usable) {
    const parts = await store.readSnapshot(usable.seq);
    const state = decodeSnapshot(parts);
    if (state.seq !== usable.seq || state.hash !== usable.hash) throw new Error(`engine snapshot ${usable.seq} holds the state after record ${state.seq}`);
    return state;
  }
  if (snapshots.length > 0) throw new Error(`engine snapshots start after record ${snapshots.at(-1)!.seq}, which the tables (at ${projectedSeq}) have not reached`);
  const head = await store.head();
  if (head) throw new Error(`the engine journal holds records up to ${head.seq} but no snapshot to replay them from`);
  const state = await genesis();
  const encoded = encodeSnapshot(state);
  await store.writeSnapshot({ seq: 0n, hash: state.hash, stateHash: encoded.stateHash, parts: encoded.chunks.length }, encoded.chunks, atMs);
  return state;
}
