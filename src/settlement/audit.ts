import type { Db } from '../store/database.ts';
import { balancesAgainstJournal, findChainHead, journalTotalOfKinds, listBlocks, pageTransactions, type BalanceVsJournal } from '../store/ledger-audit-repository.ts';
import { listMarkets, type LedgerMarket } from '../store/ledger-journal-repository.ts';
import { marketLockAccount } from './accounts.ts';
import { blockHash, GENESIS_HASH, transactionHash } from './embedded/hashes.ts';
import { COLLATERAL, CREDITED_KINDS } from './types.ts';

/** `account|asset` → the amount that should be locked there; absent keys expect nothing locked. */
export type ExpectedLocks = Map<string, bigint>;
export const lockKey = (account: string, asset: string) => `${account}|${asset}`;

export type Invariant =
  | 'non-negative-balances'
  | 'balances-match-journal'
  | 'locks-match-commitments'
  | 'market-supply'
  | 'collateral-equals-deposits'
  | 'transaction-hashes'
  | 'block-chain';

export interface AuditViolation {
  invariant: Invariant;
  detail: string;
}

export interface AuditReport {
  ok: boolean;
  violations: AuditViolation[];
  counts: { balances: number; markets: number; transactions: number; blocks: number };
}

const PAGE = 2_000;
/** Past this many violations of one invariant an audit report says how many more there were. */
export const AUDIT_DETAILS_PER_INVARIANT = 20;

/**
 * Checks every invariant of the embedded ledger and names each one that is broken:
 * - non-negative-balances: no balance or lock below zero, no lock above its balance;
 * - balances-match-journal: each maintained balance equals the sum of its journal entries;
 * - locks-match-commitments: locks equal `expectedLocks` (open orders' needs, bonds), exactly;
 * - market-supply: an unresolved market's two tokens have equal supply, equal to its locked
 *   collateral; a resolved market's lock still covers what its outstanding tokens pay;
 *   no token exists outside a registered market;
 * - collateral-equals-deposits: all collateral held equals all collateral ever credited;
 * - transaction-hashes, block-chain: every hash recomputes from what was recorded, and each
 *   block names its parent.
 */
export async function auditLedger(db: Db, expectedLocks: ExpectedLocks = new Map()): Promise<AuditReport> {
  const violations: AuditViolation[] = [];
  const report = (invariant: Invariant, detail: string) => violations.push({ invariant, detail });
  const balances = await balancesAgainstJournal(db);
  checkBalances(balances, report);
  checkLocks(balances, expectedLocks, report);
  const markets = await listMarkets(db);
  checkMarkets(balances, markets, report);
  const held = balances.filter((b) => b.asset === COLLATERAL).reduce((sum, b) => sum + b.balance, 0n);
  const credited = await journalTotalOfKinds(db, [...CREDITED_KINDS], COLLATERAL);
  if (held !== credited) report('collateral-equals-deposits', `collateral held ${held} != credited ${credited}`);
  const { count: transactions, txHashesByBlock } = await checkTransactions(db, report);
  const blocks = await checkBlocks(db, txHashesByBlock, report);
  return { ok: violations.length === 0, violations: capped(violations), counts: { balances: balances.length, markets: markets.length, transactions, blocks } };
}

type Report = (invariant: Invariant, detail: string) => void;

function checkBalances(balances: BalanceVsJournal[], report: Report): void {
  for (const b of balances) {
    if (b.balance < 0n || b.locked < 0n || b.locked > b.balance) report('non-negative-balances', `${b.account} ${b.asset}: balance ${b.balance}, locked ${b.locked}`);
    if (b.balance !== b.journal) report('balances-match-journal', `${b.account} ${b.asset}: balance ${b.balance}, journal ${b.journal}`);
  }
}

function checkLocks(balances: BalanceVsJournal[], expected: ExpectedLocks, report: Report): void {
  const seen = new Set<string>();
  for (const b of balances) {
    const key = lockKey(b.account, b.asset);
    seen.add(key);
    const want = expected.get(key) ?? 0n;
    if (b.locked !== want) report('locks-match-commitments', `${key}: locked ${b.locked}, commitments ${want}`);
  }
  for (const [key, want] of expected) if (!seen.has(key) && want !== 0n) report('locks-match-commitments', `${key}: locked 0, commitments ${want}`);
}

function checkMarkets(balances: BalanceVsJournal[], markets: LedgerMarket[], report: Report): void {
  const supply = new Map<string, bigint>();
  const collateralOf = new Map<string, bigint>();
  for (const b of balances) {
    if (b.asset === COLLATERAL) collateralOf.set(b.account, b.balance);
    else supply.set(b.asset, (supply.get(b.asset) ?? 0n) + b.balance);
  }
  const known = new Set<string>();
  for (const m of markets) {
    known.add(m.tokenId1).add(m.tokenId2);
    const s1 = supply.get(m.tokenId1) ?? 0n;
    const s2 = supply.get(m.tokenId2) ?? 0n;
    const lock = collateralOf.get(marketLockAccount(m.conditionId)) ?? 0n;
    if (!m.payout) {
      if (s1 !== s2 || s1 !== lock) report('market-supply', `market ${m.conditionId}: supplies ${s1} and ${s2}, locked collateral ${lock}`);
    } else if (BigInt(m.payout.den) * lock < BigInt(m.payout.payout1) * s1 + BigInt(m.payout.payout2) * s2) {
      report('market-supply', `resolved market ${m.conditionId}: locked ${lock} does not cover supplies ${s1} and ${s2}`);
    }
  }
  for (const [tokenId, s] of supply) if (!known.has(tokenId) && s !== 0n) report('market-supply', `token ${tokenId} (supply ${s}) belongs to no market`);
}

/** Recomputes every transaction hash, page by page, and collects each block's hashes in sequence order. */
async function checkTransactions(db: Db, report: Report): Promise<{ count: number; txHashesByBlock: Map<bigint, string[]> }> {
  let count = 0;
  const txHashesByBlock = new Map<bigint, string[]>();
  for (let after = 0n; ;) {
    const page = await pageTransactions(db, after, PAGE);
    if (page.length === 0) return { count, txHashesByBlock };
    for (const tx of page) {
      const recomputed = transactionHash({ seq: tx.seq, kind: tx.kind, ref: tx.ref, createdAtMs: tx.createdAt.getTime(), entries: tx.entries });
      if (recomputed !== tx.txHash) report('transaction-hashes', `transaction ${tx.seq}: recorded ${tx.txHash}, recomputed ${recomputed}`);
      if (tx.blockNumber === null) continue;
      const inBlock = txHashesByBlock.get(tx.blockNumber) ?? [];
      inBlock.push(tx.txHash);
      txHashesByBlock.set(tx.blockNumber, inBlock);
    }
    count += page.length;
    after = page[page.length - 1]!.seq;
  }
}

async function checkBlocks(db: Db, txHashesByBlock: Map<bigint, string[]>, report: Report): Promise<number> {
  const blocks = await listBlocks(db);
  let parent = GENESIS_HASH;
  blocks.forEach((block, i) => {
    const txHashes = txHashesByBlock.get(block.number) ?? [];
    if (block.number !== BigInt(i + 1)) report('block-chain', `block ${block.number} is out of sequence (expected ${i + 1})`);
    if (block.parentHash !== parent) report('block-chain', `block ${block.number} names parent ${block.parentHash}, expected ${parent}`);
    if (txHashes.length !== block.txCount) report('block-chain', `block ${block.number} records ${block.txCount} transactions, holds ${txHashes.length}`);
    const recomputed = blockHash({ number: block.number, parentHash: block.parentHash, sealedAtMs: block.sealedAt.getTime(), txHashes });
    if (recomputed !== block.hash) report('block-chain', `block ${block.number}: recorded ${block.hash}, recomputed ${recomputed}`);
    parent = block.hash;
  });
  const head = await findChainHead(db);
  if (head.number !== BigInt(blocks.length) || head.hash !== parent) report('block-chain', `chain head ${head.number} ${head.hash} is not the last block`);
  return blocks.length;
}

function capped(violations: AuditViolation[]): AuditViolation[] {
  const out: AuditViolation[] = [];
  const counts = new Map<Invariant, number>();
  for (const v of violations) {
    const n = (counts.get(v.invariant) ?? 0) + 1;
    counts.set(v.invariant, n);
    if (n <= AUDIT_DETAILS_PER_INVARIANT) out.push(v);
  }
  for (const [invariant, n] of counts) if (n > AUDIT_DETAILS_PER_INVARIANT) out.push({ invariant, detail: `and ${n - AUDIT_DETAILS_PER_INVARIANT} more` });
  return out;
}
