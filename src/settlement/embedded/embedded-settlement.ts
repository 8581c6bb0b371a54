import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/database.ts';
import { findBalance, listAccountBalances, lockAvailable, lockBalances, unlock } from '../../store/ledger-balances-repository.ts';
import { findMarket, setMarketPayout, upsertMarkets, type LedgerMarket } from '../../store/ledger-journal-repository.ts';
import {
  COLLATERAL, InsufficientBalanceError, LedgerStateError,
  type AccountBalances, type BatchMergeReceipt, type HeldBalances, type UnprojectedLocks, type BatchRedeemReceipt, type Credit, type LedgerReceipt, type MarketTokens, type Movement, type RedeemReceipt,
  type ResolutionOutcome, type Settlement, type SplitOrMerge, type TradeFill, type Transfer,
} from '../types.ts';
import { sealNextBlock } from './blocks.ts';
import { BatchedLockSession, HeldBalanceRows } from './lock-session.ts';
import { recordGuardedPosting, recordPostings } from './journal.ts';
import { mergePosting, redeemPayout, redeemPosting, splitPosting, tradePosting, type Payout, type Posting } from './postings.ts';

const PAYOUTS: Record<ResolutionOutcome, Payout> = {
  YES: { payout1: 1, payout2: 0, den: 1 },
  NO: { payout1: 0, payout2: 1, den: 1 },
  TIE: { payout1: 1, payout2: 1, den: 2 },
};

function positive(amount: bigint, what: string): void {
  if (amount <= 0n) throw new LedgerStateError(`${what} must be positive, got ${amount}`);
}

/**
 * Locks the account's rows of the markets' tokens (in key order, so concurrent writers queue) and
 * returns what is available of each: balance − locked, 0 when there is no row.
 */
async function lockAvailableTokens(tx: Db, account: string, markets: MarketTokens[]): Promise<(tokenId: string) => bigint> {
  const keys = markets.flatMap((m) => [m.tokenId1, m.tokenId2]).sort().map((asset) => ({ account, asset }));
  const rows = new Map((await lockBalances(tx, keys)).map((row) => [row.asset, row.balance - row.locked]));
  return (tokenId) => rows.get(tokenId) ?? 0n;
}

/**
 * The settlement layer inside the server: balances, reservations and the hash-chained journal in
 * the store's own database (see README.md for the invariants and the write paths).
 */
export class EmbeddedSettlement implements Settlement {
  readonly kind = 'embedded' as const;

  constructor(private readonly clock: Clock) {}

  async credit(tx: Db, credit: Credit) {
    positive(credit.amount, 'a credit');
    const [txHash] = await recordPostings(tx, [{ kind: credit.reason, ref: credit.ref, legs: [{ account: credit.account, asset: COLLATERAL, balanceDelta: credit.amount, lockedDelta: 0n, reason: credit.reason }] }], this.clock.nowMs());
    const row = await findBalance(tx, { account: credit.account, asset: COLLATERAL });
    return { txHash: txHash!, balance: row!.balance };
  }

  async reserve(tx: Db, m: Movement): Promise<void> {
    positive(m.amount, 'a reservation');
    if (await lockAvailable(tx, m, m.amount)) return;
    const row = await findBalance(tx, m);
    throw new InsufficientBalanceError(m.account, m.asset, row ? row.balance - row.locked : 0n, m.amount);
  }

  async release(tx: Db, m: Movement): Promise<void> {
    positive(m.amount, 'a release');
    if (await unlock(tx, m, m.amount)) return;
    const row = await findBalance(tx, m);
    throw new LedgerStateError(`release of ${m.amount} ${m.asset} for ${m.account} (${m.ref}) exceeds the ${row?.locked ?? 0n} locked`);
  }

  openLockSession(tx: Db, keys: { account: string; asset: string }[], held?: HeldBalances, unprojected?: UnprojectedLocks) {
    return BatchedLockSession.open(tx, keys, held as HeldBalanceRows | undefined, unprojected);
  }

  heldBalances(): HeldBalances {
    return new HeldBalanceRows();
  }

  async transfer(tx: Db, t: Transfer): Promise<LedgerReceipt> {
    positive(t.amount, 'a transfer');
    if (t.from === t.to) throw new LedgerStateError('a transfer needs two accounts');
    const legs = [
      { account: t.from, asset: t.asset, balanceDelta: -t.amount, lockedDelta: 0n, reason: `${t.kind}_OUT` },
      { account: t.to, asset: t.asset, balanceDelta: t.amount, lockedDelta: 0n, reason: `${t.kind}_IN` },
    ];
    return { txHash: await recordGuardedPosting(tx, { kind: t.kind, ref: t.ref, legs }, this.clock.nowMs()) };
  }

  async split(tx: Db, s: SplitOrMerge): Promise<LedgerReceipt> {
    positive(s.amount, 'a split');
    await this.registerMarket(tx, s.market);
    return { txHash: await recordGuardedPosting(tx, splitPosting(s.account, s.market, s.amount, s.ref), this.clock.nowMs()) };
  }

  async merge(tx: Db, s: SplitOrMerge): Promise<LedgerReceipt> {
    positive(s.amount, 'a merge');
    await this.registerMarket(tx, s.market);
    return { txHash: await recordGuardedPosting(tx, mergePosting(s.account, s.market, s.amount, s.ref), this.clock.nowMs()) };
  }

  async mergeBatch(tx: Db, r: { account: string; markets: MarketTokens[]; ref: string }): Promise<BatchMergeReceipt | null> {
    await upsertMarkets(tx, r.markets);
    const available = await lockAvailableTokens(tx, r.account, r.markets);
    const legs: Posting['legs'] = [];
    const markets: BatchMergeReceipt['markets'] = [];
    for (const market of r.markets) {
      const a1 = available(market.tokenId1);
      const a2 = available(market.tokenId2);
      const amount = a1 < a2 ? a1 : a2;
      if (amount === 0n) continue;
      legs.push(...mergePosting(r.account, market, amount, r.ref).legs);
      markets.push({ conditionId: market.conditionId, amount });
    }
    if (markets.length === 0) return null;
    const [txHash] = await recordPostings(tx, [{ kind: 'MERGE', ref: r.ref, legs }], this.clock.nowMs());
    return { txHash: txHash!, markets };
  }

  async registerMarket(tx: Db, market: MarketTokens): Promise<void> {
    await upsertMarkets(tx, [market]);
  }

  async resolveMarket(tx: Db, market: MarketTokens, outcome: ResolutionOutcome): Promise<void> {
    await this.registerMarket(tx, market);
    if (!(await setMarketPayout(tx, market.conditionId, PAYOUTS[outcome], new Date(this.clock.nowMs())))) {
      throw new LedgerStateError(`market ${market.conditionId} is already resolved`);
    }
  }

  async redeem(tx: Db, r: { account: string; market: MarketTokens; ref: string }): Promise<RedeemReceipt | null> {
    const batch = await this.redeemBatch(tx, { account: r.account, markets: [r.market], ref: r.ref });
    const one = batch?.markets[0];
    return batch && one ? { txHash: batch.txHash, burned: one.burned, payoutBaseUnits: one.payoutBaseUnits } : null;
  }

  async redeemBatch(tx: Db, r: { account: string; markets: MarketTokens[]; ref: string }): Promise<BatchRedeemReceipt | null> {
    const resolved: Array<{ market: LedgerMarket; payout: Payout }> = [];
    for (const tokens of r.markets) {
      const market = await findMarket(tx, tokens.conditionId);
      if (!market?.payout) throw new LedgerStateError(`market ${tokens.conditionId} is not resolved`);
      resolved.push({ market, payout: market.payout });
    }
    const available = await lockAvailableTokens(tx, r.account, resolved.map(({ market }) => market));
    const legs: Posting['legs'] = [];
    const markets: BatchRedeemReceipt['markets'] = [];
    for (const { market, payout } of resolved) {
      const a1 = available(market.tokenId1);
      const a2 = available(market.tokenId2);
      if (a1 === 0n && a2 === 0n) continue;
      legs.push(...redeemPosting(r.account, market, payout, a1, a2, r.ref).legs);
      markets.push({ conditionId: market.conditionId, burned: [a1, a2], payoutBaseUnits: redeemPayout(payout, a1, a2) });
    }
    if (markets.length === 0) return null;
    const [txHash] = await recordPostings(tx, [{ kind: 'REDEEM', ref: r.ref, legs }], this.clock.nowMs());
    return { txHash: txHash!, markets };
  }

  async settleTrades(tx: Db, fills: TradeFill[]): Promise<{ tradeId: string; txHash: string }[]> {
    if (fills.length === 0) return [];
    const postings = fills.map(tradePosting);
    const markets = new Map(fills.filter((f) => f.kind !== 'TRANSFER').map((f) => [f.market.conditionId, f.market]));
    const hashes = await recordPostings(tx, postings, this.clock.nowMs(), [...markets.values()]);
    return fills.map((f, i) => ({ tradeId: f.tradeId, txHash: hashes[i]! }));
  }

  async balances(db: Db, account: string): Promise<AccountBalances> {
    const rows = await listAccountBalances(db, account);
    const row = (r: { balance: bigint; locked: bigint }) => ({ balance: r.balance, locked: r.locked, available: r.balance - r.locked });
    const collateral = rows.find((r) => r.asset === COLLATERAL);
    return {
      collateral: row(collateral ?? { balance: 0n, locked: 0n }),
      tokens: rows.filter((r) => r.asset !== COLLATERAL).map((r) => ({ tokenId: r.asset, ...row(r) })),
    };
  }

  sealBlock(tx: Db) {
    return sealNextBlock(tx, this.clock.nowMs());
  }
}
