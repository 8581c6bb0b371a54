import type { Db } from '../store/database.ts';
import { readEngineTables } from '../store/engine-audit-repository.ts';
import { keccak256HexOf } from '../core/keccak.ts';
import type { EngineStore } from './journal/journal-store.ts';
import { replayRecords } from './recovery.ts';
import type { EngineState } from './state/engine-state.ts';
import { decodeSnapshot, encodeSnapshot } from './state/snapshot-codec.ts';
import { stateViolations } from './state/invariants.ts';

export type JournalInvariant = 'journal-chain' | 'snapshot-hashes' | 'state-invariants' | 'tables-match-journal';

export interface JournalAuditReport {
  violations: { invariant: JournalInvariant; detail: string }[];
  counts: { records: number; snapshots: number };
}

/** Past this many differences between the tables and the replay, the rest are counted. */
const MAX_DETAILS = 20;

/** How many times the audit starts again when a running engine prunes the records it was replaying. */
const MAX_RESTARTS = 5;

/**
 * The audit of the journal (README.md "The audit"): replays it from the oldest snapshot kept,
 * checking every record against the hash chain and every later snapshot against the state the
 * replay reaches at its position, checks the ledger's invariants on the state it ends at, and
 * checks that the tables hold exactly that state (balances, open orders, unsettled trades, the
 * ledger's sequence and chain). The tables are compared as of their projected position, read in
 * the same snapshot of the database as the rows: an engine may run meanwhile, and when its
 * snapshotter prunes the snapshot and records the replay started from, the audit starts again
 * from the oldest kept (a gap is a violation only while the replay's snapshot is still there).
 */
export async function auditJournal(db: Db, store: EngineStore, restarts = 0): Promise<JournalAuditReport> {
  const violations: JournalAuditReport['violations'] = [];
  const snapshots = (await store.listSnapshots()).sort((a, b) => (a.seq < b.seq ? -1 : 1));
  const oldest = snapshots[0];
  if (!oldest) return { violations: [{ invariant: 'snapshot-hashes', detail: 'the store holds no snapshot to replay from' }], counts: { records: 0, snapshots: 0 } };
  const parts = await store.readSnapshot(oldest.seq);
  if (keccak256HexOf(...parts) !== oldest.stateHash) violations.push({ invariant: 'snapshot-hashes', detail: `snapshot ${oldest.seq}'s text does not hash to its state hash` });
  const state = decodeSnapshot(parts);
  const due = new Map(snapshots.slice(1).map((s) => [s.seq, s.stateHash]));
  const tables = await db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute((tx) => readEngineTables(tx));
  let records = 0;
  const differing: { seq: bigint; lines: string[] }[] = [];
  let broken: unknown;
  try {
    await replayRecords(store, state, (seq) => {
      records += 1;
      const expected = due.get(seq);
      if (expected === undefined) return;
      const replayed = encodeSnapshot(state);
      if (replayed.stateHash !== expected) differing.push({ seq, lines: replayed.chunks.join('').split('\n') });
    }, tables.projectedSeq);
    for (const { seq, lines } of differing) {
      violations.push({ invariant: 'snapshot-hashes', detail: `the replay at ${seq} differs from the snapshot written there${firstDifference(lines, (await store.readSnapshot(seq)).join('').split('\n'))}` });
    }
  } catch (error) {
    broken = error;
  }
  // Whether the replay broke off or finished, it means nothing if its snapshot was pruned meanwhile.
  if ((await prunedSince(store, oldest.seq)) && restarts < MAX_RESTARTS) return auditJournal(db, store, restarts + 1);
  if (broken !== undefined) {
    violations.push({ invariant: 'journal-chain', detail: broken instanceof Error ? broken.message : String(broken) });
    return { violations, counts: { records, snapshots: snapshots.length } };
  }
  for (const detail of stateViolations(state)) violations.push({ invariant: 'state-invariants', detail });
  for (const detail of tableDifferences(state, tables).slice(0, MAX_DETAILS)) violations.push({ invariant: 'tables-match-journal', detail });
  return { violations, counts: { records, snapshots: snapshots.length } };
}

/** The snapshot a replay started from is gone: a snapshotter pruned it, and the records after it, meanwhile. */
async function prunedSince(store: EngineStore, seq: bigint): Promise<boolean> {
  return !(await store.listSnapshots()).some((s) => s.seq === seq);
}

function tableDifferences(state: EngineState, tables: Awaited<ReturnType<typeof readEngineTables>>): string[] {
  const differences: string[] = [];
  if (state.seq !== tables.projectedSeq) differences.push(`the replay reached record ${state.seq}, the tables ${tables.projectedSeq}`);
  const balances = new Map(tables.balances.filter((b) => b.balance !== 0n || b.locked !== 0n).map((b) => [`${b.account} ${b.asset}`, b]));
  for (const { account, asset, row } of state.balances.rows()) {
    const key = `${account} ${asset}`;
    const stored = balances.get(key);
    if (stored?.balance !== row.balance || stored.locked !== row.locked) differences.push(`balance ${key}: journal ${row.balance}/${row.locked}, tables ${stored?.balance ?? 0n}/${stored?.locked ?? 0n}`);
    balances.delete(key);
  }
  for (const [key, stored] of balances) differences.push(`balance ${key}: journal 0/0, tables ${stored.balance}/${stored.locked}`);
  const open = new Map(tables.openOrders.map((o) => [o.id, o]));
  for (const order of state.open.values()) {
    const stored = open.get(order.id);
    if (stored?.matched !== order.matchedBaseUnits || stored.status !== order.status) differences.push(`open order ${order.id}: journal ${order.status} ${order.matchedBaseUnits}, tables ${stored ? `${stored.status} ${stored.matched}` : 'not open'}`);
    open.delete(order.id);
  }
  for (const id of open.keys()) differences.push(`order ${id} is open in the tables, not in the journal`);
  const unsettled = new Map(tables.unsettledTrades.map((t) => [t.id, t.status]));
  for (const trade of state.unsettled.values()) {
    if (unsettled.get(trade.id) !== trade.status) differences.push(`trade ${trade.id}: journal ${trade.status}, tables ${unsettled.get(trade.id) ?? 'settled or missing'}`);
    unsettled.delete(trade.id);
  }
  for (const id of unsettled.keys()) differences.push(`trade ${id} is unsettled in the tables, not in the journal`);
  if (tables.lastLedgerSeq !== state.ledger.nextSeq - 1n) differences.push(`ledger transactions: journal ${state.ledger.nextSeq - 1n}, tables ${tables.lastLedgerSeq}`);
  if (tables.chainHead.number !== state.ledger.head.number || tables.chainHead.hash !== state.ledger.head.hash) differences.push(`ledger chain head: journal ${state.ledger.head.number}, tables ${tables.chainHead.number}`);
  return differences;
}

/** Where a replay's snapshot text and the stored one first part (what an operator needs to start looking). */
function firstDifference(replayed: string[], stored: string[]): string {
  const at = replayed.findIndex((line, i) => line !== stored[i]);
  if (at === -1) return replayed.length === stored.length ? '' : `: the stored text has ${stored.length} lines, the replay ${replayed.length}`;
  const clip = (line: string | undefined) => (line === undefined ? '(none)' : line.length > 300 ? `${line.slice(0, 300)}…` : line);
  return `: line ${at + 1} replayed ${clip(replayed[at])}, stored ${clip(stored[at])}`;
}
