import { lockBalances } from '../../store/ledger-balances-repository.ts';
import { nextTransactionSeqs, writePostings, type JournalEntry, type JournalTransaction, type MarketTokenIds } from '../../store/ledger-journal-repository.ts';
import type { Db } from '../../store/database.ts';
import { InsufficientBalanceError } from '../types.ts';
import { transactionHash } from './hashes.ts';
import { netChanges, type Posting } from './postings.ts';

/**
 * Writes postings as ledger transactions: sequence numbers in one round trip, hashes computed here,
 * then the journal, the balance totals and the `markets` the postings name (registered once) in
 * one statement, whatever the count. Returns each posting's transaction hash, in order.
 */
export async function recordPostings(tx: Db, postings: Posting[], nowMs: number, markets: MarketTokenIds[] = []): Promise<string[]> {
  if (postings.length === 0) return [];
  const seqs = await nextTransactionSeqs(tx, postings.length);
  const createdAt = new Date(nowMs);
  const txs: JournalTransaction[] = [];
  const entries: JournalEntry[] = [];
  postings.forEach((posting, i) => {
    const seq = seqs[i]!;
    const legs = posting.legs.filter((l) => l.balanceDelta !== 0n);
    const hashed = legs.map((l) => ({ account: l.account, asset: l.asset, amount: l.balanceDelta, reason: l.reason }));
    const txHash = transactionHash({ seq, kind: posting.kind, ref: posting.ref, createdAtMs: nowMs, entries: hashed });
    txs.push({ seq, txHash, kind: posting.kind, ref: posting.ref, createdAt });
    hashed.forEach((e, idx) => { entries.push({ txSeq: seq, idx, ...e }); });
  });
  await writePostings(tx, { markets, txs, entries, changes: netChanges(postings) });
  return txs.map((t) => t.txHash);
}

/**
 * Records a posting that spends available balances (a user's split, merge, transfer): every row it
 * touches is locked first, in key order, and each debit is checked against what is available, so
 * a refusal changes nothing and two concurrent calls can never both spend the same balance.
 */
export async function recordGuardedPosting(tx: Db, posting: Posting, nowMs: number): Promise<string> {
  const changes = netChanges([posting]);
  const rows = await lockBalances(tx, changes);
  const held = new Map(rows.map((r) => [`${r.account}\u0000${r.asset}`, r]));
  for (const change of changes) {
    if (change.balance >= 0n) continue;
    const row = held.get(`${change.account}\u0000${change.asset}`);
    const available = row ? row.balance - row.locked : 0n;
    if (available < -change.balance) throw new InsufficientBalanceError(change.account, change.asset, available, -change.balance);
  }
  const [txHash] = await recordPostings(tx, [posting], nowMs);
  return txHash!;
}
