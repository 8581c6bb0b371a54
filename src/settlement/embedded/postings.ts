import { PRICE_ONE } from '../../core/money.ts';
import { costBaseUnits } from '../../core/orders/reservation.ts';
import { marketFeeAccount, marketLockAccount } from '../accounts.ts';
import { COLLATERAL, LedgerStateError, type Asset, type MarketTokens, type PartyFill, type TradeFill } from '../types.ts';

/**
 * Pure construction of ledger transactions ("postings") from operations: no I/O, so the value
 * rules (what moves where, and that nothing is created or destroyed) are tested on their own.
 */
export interface Leg {
  account: string;
  asset: Asset;
  /** Change of the balance; recorded as a journal entry when non-zero. */
  balanceDelta: bigint;
  /** Change of the locked part (trade settlement consumes reservations); not journalled. */
  lockedDelta: bigint;
  reason: string;
}

export interface Posting {
  kind: string;
  ref: string;
  legs: Leg[];
}

const leg = (account: string, asset: Asset, balanceDelta: bigint, reason: string, lockedDelta = 0n): Leg => ({ account, asset, balanceDelta, lockedDelta, reason });

/** Collateral entering the exchange (a deposit, the faucet, the reward treasury's funding). */
export function creditPosting(account: string, amount: bigint, reason: string, ref: string): Posting {
  return { kind: reason, ref, legs: [leg(account, COLLATERAL, amount, reason)] };
}

/** Available balance moving from one account to another; `kind` names why (REWARD, BOND_FORFEIT…). */
export function transferPosting(t: { from: string; to: string; asset: Asset; amount: bigint; kind: string; ref: string }): Posting {
  if (t.from === t.to) throw new LedgerStateError('a transfer needs two accounts');
  return { kind: t.kind, ref: t.ref, legs: [leg(t.from, t.asset, -t.amount, `${t.kind}_OUT`), leg(t.to, t.asset, t.amount, `${t.kind}_IN`)] };
}

/** What each token of a resolved market pays: YES [1, 0], NO [0, 1], TIE [1/2, 1/2]. */
export const PAYOUTS: Record<'YES' | 'NO' | 'TIE', Payout> = {
  YES: { payout1: 1, payout2: 0, den: 1 },
  NO: { payout1: 0, payout2: 1, den: 1 },
  TIE: { payout1: 1, payout2: 1, den: 2 },
};

export function splitPosting(account: string, market: MarketTokens, amount: bigint, ref: string): Posting {
  return {
    kind: 'SPLIT',
    ref,
    legs: [
      leg(account, COLLATERAL, -amount, 'SPLIT_COLLATERAL'),
      leg(marketLockAccount(market.conditionId), COLLATERAL, amount, 'SPLIT_LOCK'),
      leg(account, market.tokenId1, amount, 'MINT'),
      leg(account, market.tokenId2, amount, 'MINT'),
    ],
  };
}

export function mergePosting(account: string, market: MarketTokens, amount: bigint, ref: string): Posting {
  return {
    kind: 'MERGE',
    ref,
    legs: [
      leg(account, market.tokenId1, -amount, 'BURN'),
      leg(account, market.tokenId2, -amount, 'BURN'),
      leg(marketLockAccount(market.conditionId), COLLATERAL, -amount, 'MERGE_LOCK'),
      leg(account, COLLATERAL, amount, 'MERGE_COLLATERAL'),
    ],
  };
}

export interface Payout {
  payout1: number;
  payout2: number;
  den: number;
}

/**
 * How a redeem rounds: `per-token` rounds each token's share down on its own, as ConditionalTokens'
 * `redeemPositions` rounds each position's, so the ledger never pays a base unit the chain does not
 * (a TIE over an odd amount of both tokens, e.g. after a split of 0.000003: the unit left over
 * stays in the market's lock, as it stays in ConditionalTokens). `sum` rounds the sum down, which
 * paid that unit: the journal's redeems written before per-token rounding replay so.
 */
export type RedeemRounding = 'per-token' | 'sum';

/** What burning `a1` and `a2` tokens pays (a TIE pays half of each), rounded down to a base unit. */
export function redeemPayout(payout: Payout, a1: bigint, a2: bigint, rounding: RedeemRounding = 'per-token'): bigint {
  if (rounding === 'sum') return (BigInt(payout.payout1) * a1 + BigInt(payout.payout2) * a2) / BigInt(payout.den);
  const [share1, share2] = redeemShares(payout, a1, a2);
  return share1 + share2;
}

/** Each token's share of a redeem's payout, `[token1's, token2's]`, each rounded down. */
export function redeemShares(payout: Payout, a1: bigint, a2: bigint): [bigint, bigint] {
  const den = BigInt(payout.den);
  return [(BigInt(payout.payout1) * a1) / den, (BigInt(payout.payout2) * a2) / den];
}

export function redeemPosting(account: string, market: MarketTokens, payout: Payout, a1: bigint, a2: bigint, ref: string, rounding: RedeemRounding = 'per-token'): Posting {
  const paid = redeemPayout(payout, a1, a2, rounding);
  const legs = [
    leg(account, market.tokenId1, -a1, 'BURN'),
    leg(account, market.tokenId2, -a2, 'BURN'),
    leg(marketLockAccount(market.conditionId), COLLATERAL, -paid, 'REDEEM_LOCK'),
    leg(account, COLLATERAL, paid, 'REDEEM_PAYOUT'),
  ];
  return { kind: 'REDEEM', ref, legs: legs.filter((l) => l.balanceDelta !== 0n) };
}

/**
 * The legs of one fill for one party. A BUY had reserved exactly cost + fee: both its balance and
 * its locked collateral fall by that, and it receives the tokens. A SELL's locked tokens leave, and
 * it receives its cost less its fee.
 */
function partyLegs(party: PartyFill, size: bigint): Leg[] {
  const cost = costBaseUnits(party.priceMicros, size);
  if (party.side === 'BUY') {
    const paid = cost + party.feeBaseUnits;
    return [leg(party.account, COLLATERAL, -paid, 'TRADE_PAYMENT', -paid), leg(party.account, party.tokenId, size, 'TRADE_TOKENS')];
  }
  if (party.feeBaseUnits > cost) throw new LedgerStateError(`a SELL fee of ${party.feeBaseUnits} exceeds its proceeds of ${cost}`);
  return [leg(party.account, party.tokenId, -size, 'TRADE_TOKENS', -size), leg(party.account, COLLATERAL, cost - party.feeBaseUnits, 'TRADE_PROCEEDS')];
}

/** Checks that a fill's parties fit its kind, so that the legs conserve value exactly. */
function checkFill(fill: TradeFill): void {
  const { taker, maker, market, sizeBaseUnits: size } = fill;
  const where = `trade ${fill.tradeId}`;
  if (size <= 0n) throw new LedgerStateError(`${where}: size must be positive`);
  for (const p of [taker, maker]) {
    if (p.tokenId !== market.tokenId1 && p.tokenId !== market.tokenId2) throw new LedgerStateError(`${where}: token ${p.tokenId} is not the market's`);
    if (!Number.isInteger(p.priceMicros) || p.priceMicros <= 0 || p.priceMicros >= Number(PRICE_ONE)) throw new LedgerStateError(`${where}: price out of (0, 1)`);
    if (p.feeBaseUnits < 0n) throw new LedgerStateError(`${where}: negative fee`);
    if ((BigInt(p.priceMicros) * size) % PRICE_ONE !== 0n) throw new LedgerStateError(`${where}: price × size is not a whole base unit`);
  }
  if (fill.kind === 'TRANSFER') {
    if (taker.tokenId !== maker.tokenId || taker.side === maker.side || taker.priceMicros !== maker.priceMicros) {
      throw new LedgerStateError(`${where}: a TRANSFER needs one token, opposite sides and one price`);
    }
    return;
  }
  const side = fill.kind === 'MINT' ? 'BUY' : 'SELL';
  if (taker.side !== side || maker.side !== side || taker.tokenId === maker.tokenId) throw new LedgerStateError(`${where}: a ${fill.kind} needs two ${side}s of different tokens`);
  if (costBaseUnits(taker.priceMicros, size) + costBaseUnits(maker.priceMicros, size) !== size) throw new LedgerStateError(`${where}: a ${fill.kind}'s prices must sum to 1`);
}

/**
 * A trade as one ledger transaction. MINT: the buyers' payments (exactly `size` between them) go
 * into the market's lock and a complete set is minted. MERGE: the sellers' complete set is burned
 * and `size` leaves the lock as their proceeds. Fees go to the market's fee account.
 */
export function tradePosting(fill: TradeFill): Posting {
  checkFill(fill);
  const size = fill.sizeBaseUnits;
  const legs = [...partyLegs(fill.taker, size), ...partyLegs(fill.maker, size)];
  const lock = marketLockAccount(fill.market.conditionId);
  if (fill.kind === 'MINT') legs.push(leg(lock, COLLATERAL, size, 'MINT_LOCK'));
  if (fill.kind === 'MERGE') legs.push(leg(lock, COLLATERAL, -size, 'MERGE_LOCK'));
  const fees = fill.taker.feeBaseUnits + fill.maker.feeBaseUnits;
  if (fees > 0n) legs.push(leg(marketFeeAccount(fill.market.conditionId), COLLATERAL, fees, 'TRADE_FEE'));
  return { kind: `TRADE_${fill.kind}`, ref: fill.tradeId, legs };
}

/** Net change per (account, asset) of some postings, sorted by key so row locks are taken in one order. */
export function netChanges(postings: Posting[]): Array<{ account: string; asset: Asset; balance: bigint; locked: bigint }> {
  const net = new Map<string, { account: string; asset: Asset; balance: bigint; locked: bigint }>();
  for (const p of postings) {
    for (const l of p.legs) {
      const key = `${l.account}\u0000${l.asset}`;
      const row = net.get(key) ?? { account: l.account, asset: l.asset, balance: 0n, locked: 0n };
      row.balance += l.balanceDelta;
      row.locked += l.lockedDelta;
      net.set(key, row);
    }
  }
  return [...net.values()]
    .filter((r) => r.balance !== 0n || r.locked !== 0n)
    .sort(compareBalanceKeys);
}

/** Balance rows in one fixed order (by account, then asset), so net changes come out the same on every replay. */
function compareBalanceKeys(a: { account: string; asset: string }, b: { account: string; asset: string }): number {
  return a.account < b.account ? -1 : a.account > b.account ? 1 : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0;
}
