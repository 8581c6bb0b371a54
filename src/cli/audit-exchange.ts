import { createMarketDirectory } from '../catalogue/index.ts';
import { genesisState } from '../engine/genesis.ts';
import { auditChain, type ChainAuditTarget, type ChainAuditViolation } from '../engine/chain-audit.ts';
import { auditJournal, type JournalAuditReport } from '../engine/journal-audit.ts';
import { databaseEngineStore } from '../engine/journal/journal-store.ts';
import { auditOrders, type OrderAuditReport, type OrderAuditViolation } from '../engine/order-audit.ts';
import { mergeChanges } from '../engine/projection/merged-changes.ts';
import { recoverState } from '../engine/recovery.ts';
import type { EngineState } from '../engine/state/engine-state.ts';
import { addBondLocks, addEscrowLocks } from '../oracle/bond-locks.ts';
import { auditLedger, expectedOrderLocks, type AuditReport, type AuditViolation } from '../settlement/index.ts';
import type { Db } from '../store/database.ts';

export interface ExchangeAuditReport {
  ok: boolean;
  violations: Array<AuditViolation | OrderAuditViolation | JournalAuditReport['violations'][number] | ChainAuditViolation>;
  counts: AuditReport['counts'] & OrderAuditReport['counts'] & JournalAuditReport['counts'] & { wallets: number; transactions: number };
}

/**
 * `pmx audit` (docs/engine.md "The audit"): first the tables take the journal's records they
 * lack, as a start would; then the journal is replayed from its oldest snapshot and checked
 * against its chain, its snapshots and the tables; then the ledger's invariants and the orders
 * against their trades are checked on the tables, in one read-only snapshot (a live node moves
 * locks and seals blocks between statements). With `chain`, the replayed ledger's wallets are
 * compared with their balances on that chain, and the settled trades with their transactions
 * (engine/chain-audit.ts); a chain that could not be reached (`unreachable`: why) is a broken
 * invariant, never a pass.
 */
export async function auditExchange(db: Db, { onChain = false, chain }: { onChain?: boolean; chain?: ChainAuditTarget | { unreachable: string } } = {}): Promise<ExchangeAuditReport> {
  const store = databaseEngineStore(db, { notify: false });
  const markets = createMarketDirectory(db);
  let journal: JournalAuditReport;
  let state: EngineState | undefined;
  try {
    const recovered = await recoverState(store, async () => genesisState(db, await markets.loadPublished()), Date.now());
    // A live engine may project the same records first: its projection counts the same.
    if (recovered.unprojected.length > 0) await store.project(mergeChanges(recovered.unprojected)).catch(() => {});
    state = recovered.state;
    journal = await auditJournal(db, store);
  } catch (error) {
    journal = { violations: [{ invariant: 'journal-chain', detail: error instanceof Error ? error.message : String(error) }], counts: { records: 0, snapshots: 0 } };
  }
  const onTheChain = await compareWithChain(chain, state, db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (tx) => {
    const locks = await addBondLocks(tx, await expectedOrderLocks(tx));
    const ledger = await auditLedger(tx, state ? addEscrowLocks(state.oracleEscrows, locks) : locks);
    const orders = await auditOrders(tx, { onChain });
    const violations = [...journal.violations, ...ledger.violations, ...orders.violations, ...onTheChain.violations];
    return { ok: violations.length === 0, violations, counts: { ...ledger.counts, ...orders.counts, ...journal.counts, wallets: onTheChain.wallets, transactions: onTheChain.transactions } };
  });
}

/**
 * The replayed ledger against the chain: nothing to compare without a chain, or without a replayed
 * state (the journal is broken, reported beside); a chain that could not be reached is a violation.
 */
async function compareWithChain(chain: ChainAuditTarget | { unreachable: string } | undefined, state: EngineState | undefined, db: Db): Promise<{ violations: ChainAuditViolation[]; wallets: number; transactions: number }> {
  if (chain !== undefined && 'unreachable' in chain) return { violations: [{ invariant: 'chain-unreachable', detail: `${chain.unreachable}: the ledger was not compared with it` }], wallets: 0, transactions: 0 };
  if (chain === undefined || state === undefined) return { violations: [], wallets: 0, transactions: 0 };
  return auditChain(state, db, chain);
}
