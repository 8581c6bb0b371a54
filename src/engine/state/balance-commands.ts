import { creditPosting, mergePosting, redeemPayout, redeemPosting, splitPosting, transferPosting, type Posting } from '../../settlement/embedded/postings.ts';
import { WITHDRAWN } from '../../settlement/accounts.ts';
import { COLLATERAL, InsufficientBalanceError, type MarketTokens } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import { failure, type ApplyContext, type EngineFailure } from './apply-context.ts';
import type { CommandFields } from './commands.ts';

/**
 * The commands that move balances outside trading (EXTENSIONS.md sections 2 to 5): credits (admin
 * deposits, the faucet, the reward treasury), transfers (reward claims), withdrawals, and the
 * conditional-token operations split, merge and redeem. Each is one ledger transaction, applied whole or not at all:
 * a caller whose available balance does not cover it gets INSUFFICIENT_BALANCE and nothing moves.
 * A credit's `replayed`: one with an idempotency key already made, answered with its transaction
 * and today's balance.
 */
export type CreditOutcome = { ok: true; txHash: string; balance: bigint; replayed: boolean } | EngineFailure;
export type TransferOutcome = { ok: true; txHash: string; replayed: boolean } | EngineFailure;
export type SplitOutcome = { ok: true; txHash: string } | EngineFailure;
export type WithdrawOutcome = { ok: true; txHash: string } | EngineFailure;
export interface MergeOutcome {
  ok: true;
  /** "" when nothing merged. */
  txHash: string;
  merged: { marketId: string; amount: bigint }[];
  excluded: { marketId: string; reason: 'not-mergeable' | 'only-one-side' }[];
}
export interface RedeemOutcome {
  ok: true;
  txHash: string;
  redeemed: { marketId: string; burned: [bigint, bigint]; payoutBaseUnits: bigint }[];
  excluded: { marketId: string; reason: 'not-redeemable' | 'zero-onchain-balance' }[];
}

/** The refusal of a credit whose idempotency key named another one (another account or amount). */
export const CREDIT_KEY_REUSED = 'idempotencyKey was already used for a different credit';

/**
 * Credits collateral. With an idempotency key, once per key: asked again for the same account and
 * amount, the answer is the first credit's transaction (and the balance now); for another, CONFLICT.
 */
export function credit(ctx: ApplyContext, c: CommandFields<'credit'>): CreditOutcome {
  if (c.amount < 0n) return negativeAmount(c.amount);
  const { ledger, balances } = ctx.state;
  const prior = c.idempotencyKey === undefined ? undefined : ledger.creditKeys.get(c.idempotencyKey);
  if (prior) {
    if (prior.account !== c.account || prior.amount !== c.amount) return failure('CONFLICT', CREDIT_KEY_REUSED);
    return { ok: true, txHash: prior.txHash, balance: balances.get(c.account, COLLATERAL).balance, replayed: true };
  }
  const [txHash] = ledger.record([creditPosting(c.account, c.amount, c.reason, c.ref)], ctx.atMs);
  ledger.credited += c.amount;
  if (c.idempotencyKey !== undefined) ledger.creditKeys.set(c.idempotencyKey, { account: c.account, amount: c.amount, txHash: txHash! });
  return { ok: true, txHash: txHash!, balance: balances.get(c.account, COLLATERAL).balance, replayed: false };
}

/**
 * Moves available balance. With `once`, a reference already recorded is not moved again: the
 * answer is the first transaction's hash (a reward claim paid again after a crash pays once).
 */
export function transfer(ctx: ApplyContext, t: { from: string; to: string; asset: string; amount: bigint; kind: string; ref: string; once: boolean }): TransferOutcome {
  if (t.amount < 0n) return negativeAmount(t.amount);
  const { ledger } = ctx.state;
  const recorded = t.once ? ledger.onceRefs.get(t.ref) : undefined;
  if (recorded) return { ok: true, txHash: recorded, replayed: true };
  const outcome = guarded(ctx, transferPosting(t));
  if (!outcome.ok) return outcome;
  if (t.once) ledger.onceRefs.set(t.ref, outcome.txHash);
  return { ...outcome, replayed: false };
}

/** The ledger transaction kind of a withdrawal. */
export const WITHDRAW_KIND = 'WITHDRAW';

/** The ledger reference of an account's withdrawal with a nonce: recorded once, so a nonce is spent once. */
export const withdrawalRef = (account: string, nonce: bigint) => `withdraw:${account}:${nonce}`;

/**
 * Collateral leaving the exchange: the account's available collateral moves to WITHDRAWN, so the
 * collateral held still equals all ever credited; sent to another user's wallet (`toAccount`), it
 * moves to that account, as it arrives there on chain. A nonce the account used before is refused, as
 * the wallet contract refuses it (ProxyWallet.withdraw), and so is an amount above available:
 * what open orders reserve stays.
 */
export function withdraw(ctx: ApplyContext, w: { account: string; amount: bigint; nonce: bigint; toAccount?: string }): WithdrawOutcome {
  if (w.amount < 0n) return negativeAmount(w.amount);
  const ref = withdrawalRef(w.account, w.nonce);
  if (ctx.state.ledger.onceRefs.has(ref)) return failure('VALIDATION_FAILED', `nonce ${w.nonce} was already used by this wallet`);
  if (w.toAccount === w.account) return failure('VALIDATION_FAILED', 'a wallet cannot withdraw to itself');
  const outcome = guarded(ctx, transferPosting({ from: w.account, to: w.toAccount ?? WITHDRAWN, asset: COLLATERAL, amount: w.amount, kind: WITHDRAW_KIND, ref }));
  if (outcome.ok) ctx.state.ledger.onceRefs.set(ref, outcome.txHash);
  return outcome;
}

/**
 * A negative amount would move value the other way: a withdrawal paying in from the withdrawn
 * account, a credit taking out, past the overdraft guard, which checks debits only. Every route
 * refuses one first (`positiveAmount`); the commands refuse it too, for any caller to come.
 */
function negativeAmount(amount: bigint) {
  return failure('VALIDATION_FAILED', `an amount cannot be negative (${amount})`);
}

/** Collateral → `amount` of both outcome tokens, the collateral held in the market's lock account. */
export function split(ctx: ApplyContext, s: CommandFields<'split'>): SplitOutcome {
  const info = ctx.state.markets.get(s.marketId);
  if (info?.status !== 'ACTIVE' || info.isResolved) return failure('MARKET_NOT_TRADABLE', `market ${s.marketId} is not ACTIVE; only ACTIVE markets split`);
  const tokens = tokensOf(info);
  ctx.state.ledger.register(tokens);
  return guarded(ctx, splitPosting(s.account, tokens, s.amount, `split:${ctx.ids.next('split')}`), s.chainTxHash);
}

/**
 * Merges as much as each market allows: the smaller of the account's two available token
 * balances, so tokens that open orders reserve never move. One transaction for all markets.
 * With `amounts` (one per market id, what a chain already merged in the wallet: src/conditional-tokens/),
 * exactly those amounts merge, all or nothing: a market no longer mergeable or an amount above
 * what is available refuses the whole command, and nothing moves.
 */
export function merge(ctx: ApplyContext, m: CommandFields<'merge'>): MergeOutcome | EngineFailure {
  const { balances, ledger } = ctx.state;
  const outcome: MergeOutcome = { ok: true, txHash: '', merged: [], excluded: [] };
  const planned: { tokens: MarketTokens; marketId: string; amount: bigint }[] = [];
  for (const [index, marketId] of m.marketIds.entries()) {
    const info = ctx.state.markets.get(marketId);
    const asked = m.amounts?.[index];
    if (info?.status !== 'ACTIVE' || info.isResolved) {
      if (asked !== undefined) return failure('MARKET_NOT_TRADABLE', `market ${marketId} is not ACTIVE; only ACTIVE markets merge`);
      outcome.excluded.push({ marketId, reason: 'not-mergeable' });
      continue;
    }
    const tokens = tokensOf(info);
    const a1 = balances.available(m.account, tokens.tokenId1);
    const a2 = balances.available(m.account, tokens.tokenId2);
    const mergeable = a1 < a2 ? a1 : a2;
    if (asked !== undefined && asked > mergeable) return failure('INSUFFICIENT_BALANCE', `market ${marketId}: ${asked} to merge, ${mergeable} available`);
    const amount = asked ?? mergeable;
    if (amount === 0n) {
      outcome.excluded.push({ marketId, reason: 'only-one-side' });
      continue;
    }
    planned.push({ tokens, marketId, amount });
  }
  const ref = `merge:${ctx.ids.next('merge')}`;
  const legs: Posting['legs'] = [];
  for (const { tokens, marketId, amount } of planned) {
    ledger.register(tokens);
    legs.push(...mergePosting(m.account, tokens, amount, ref).legs);
    outcome.merged.push({ marketId, amount });
  }
  if (legs.length > 0) outcome.txHash = ledger.record([{ kind: 'MERGE', ref, legs }], ctx.atMs, { chainTxHash: m.chainTxHash })[0]!;
  outcome.excluded = byReason(outcome.excluded, ['not-mergeable', 'only-one-side']);
  return outcome;
}

/** Burns the account's available tokens of resolved markets and pays what they pay, in one transaction. */
export function redeem(ctx: ApplyContext, r: CommandFields<'redeem'>): RedeemOutcome {
  const { balances, ledger } = ctx.state;
  const outcome: RedeemOutcome = { ok: true, txHash: '', redeemed: [], excluded: [] };
  const ref = `redeem:${ctx.ids.next('redeem')}`;
  const legs: Posting['legs'] = [];
  for (const marketId of r.marketIds) {
    const info = ctx.state.markets.get(marketId);
    const market = info && ledger.markets.get(info.conditionId);
    if (!info || !market?.payout) {
      outcome.excluded.push({ marketId, reason: 'not-redeemable' });
      continue;
    }
    const a1 = balances.available(r.account, market.tokenId1);
    const a2 = balances.available(r.account, market.tokenId2);
    if (a1 === 0n && a2 === 0n) {
      outcome.excluded.push({ marketId, reason: 'zero-onchain-balance' });
      continue;
    }
    legs.push(...redeemPosting(r.account, market, market.payout, a1, a2, ref, r.rounding).legs);
    outcome.redeemed.push({ marketId, burned: [a1, a2], payoutBaseUnits: redeemPayout(market.payout, a1, a2, r.rounding) });
  }
  outcome.excluded = byReason(outcome.excluded, ['not-redeemable', 'zero-onchain-balance']);
  if (legs.length === 0) return outcome;
  outcome.txHash = ledger.record([{ kind: 'REDEEM', ref, legs }], ctx.atMs, { chainTxHash: r.chainTxHash })[0]!;
  for (const paid of outcome.redeemed) {
    ctx.effects.redeemed({ id: ctx.ids.next('redemption'), userId: r.userId, account: r.account, marketId: paid.marketId, txHash: r.chainTxHash ?? outcome.txHash, burned: paid.burned, payoutBaseUnits: paid.payoutBaseUnits, atMs: ctx.atMs });
  }
  return outcome;
}

/** Exclusions grouped by reason, in the order given, each group in request order. */
function byReason<R extends string>(excluded: { marketId: string; reason: R }[], order: R[]): { marketId: string; reason: R }[] {
  return order.flatMap((reason) => excluded.filter((e) => e.reason === reason));
}

export function tokensOf(info: MarketTradingInfo): MarketTokens {
  return { conditionId: info.conditionId, tokenId1: info.tokenId1, tokenId2: info.tokenId2 };
}

/** A posting that spends available balance: refused, changing nothing, when that does not cover it. */
function guarded(ctx: ApplyContext, posting: Posting, chainTxHash?: string): { ok: true; txHash: string } | EngineFailure {
  try {
    return { ok: true, txHash: ctx.state.ledger.record([posting], ctx.atMs, { guarded: true, chainTxHash })[0]! };
  } catch (error) {
    if (error instanceof InsufficientBalanceError) return failure('INSUFFICIENT_BALANCE', error.message);
    throw error;
  }
}
