import { reservationFor } from '../../core/orders/reservation.ts';
import { OUTSIDE } from '../../settlement/accounts.ts';
import { creditPosting, splitPosting, transferPosting, type Posting } from '../../settlement/embedded/postings.ts';
import { COLLATERAL } from '../../settlement/types.ts';
import type { ApplyContext } from './apply-context.ts';
import { tokensOf } from './balance-commands.ts';
import { remainingOf } from './book-orders.ts';
import { closeOpenOrder, termsOf } from './order-commands.ts';
import type { EngineOrder } from './types.ts';
import { approvalsNeeded, MissingApprovals, type ChainApproval } from './wallet-approvals.ts';

/**
 * Value that moved on chain behind the exchange's back (CHAIN=embedded, EXTENSIONS.md section 14
 * "Balances"), as the leader's indexer (engine/chain-index/) reads it from confirmed blocks: the
 * collateral's `Transfer`s and ConditionalTokens' transfers that touch a user's wallet and were not
 * sent by the exchange's own keys (the ledger holds those already), and the approvals users' wallets
 * gave or revoked the exchanges (wallet-approvals.ts). One command per block range, the index's
 * cursor moving in it, so a takeover resumes after the last range journaled.
 */
export interface ChainTransfer {
  /** Where it happened (`<txHash>:<logIndex>`, `/<i>` for an entry of a batch): the ledger transaction's reference. */
  readonly ref: string;
  /** The user's wallet (a ledger account). */
  readonly account: string;
  /** COLLATERAL, or an outcome token's id. */
  readonly asset: string;
  readonly amount: bigint;
  readonly direction: 'in' | 'out';
}

/** What left a wallet on chain and the ledger could not debit yet: locked by trades not settled. */
export interface Shortfall {
  readonly account: string;
  readonly asset: string;
  amount: bigint;
}

/** What the indexer read of one range, in chain order: value moved, approvals changed. */
export type ChainIndexEvent = ChainTransfer | ChainApproval;

/** The indexer's part of the state: the last block it indexed, what wallets still owe the ledger, the approvals they revoked. */
export class ChainIndex {
  cursor = 0;
  /** By `account|asset`. */
  readonly shortfalls = new Map<string, Shortfall>();
  readonly missingApprovals = new MissingApprovals();
}

/** The ledger kinds: value moved between a wallet and OUTSIDE, and value that entered from nowhere the ledger knew. */
export const CHAIN_TRANSFER_KIND = 'CHAIN_TRANSFER';
export const CHAIN_DEPOSIT_KIND = 'CHAIN_DEPOSIT';

/**
 * Applies the transfers and approvals of the blocks up to `toBlock`, in chain order. A range at or
 * below the cursor was applied before (a command sent again) and changes nothing. An incoming
 * transfer credits the wallet; an outgoing one debits it, cancelling the wallet's open orders that
 * reserve the asset (`UNFUNDED`, newest first) when its available balance is short; what even that
 * does not cover (locked by unsettled trades) is a shortfall, debited as soon as it becomes
 * available (here, and after each `chain-fills`: such a match fails on chain and its reservation
 * returns). A revoked approval cancels every open order of the wallet that needs it (`UNFUNDED`).
 */
export function applyChainTransfers(ctx: ApplyContext, toBlock: number, events: readonly ChainIndexEvent[]): void {
  const index = ctx.state.chainIndex;
  if (toBlock <= index.cursor) return;
  index.cursor = toBlock;
  ctx.effects.chainIndexChanged = true;
  for (const event of events) {
    if ('approval' in event) changeApproval(ctx, event);
    else if (event.direction === 'in') receive(ctx, event);
    else owe(ctx, event);
  }
  settleShortfalls(ctx);
}

/**
 * An approval given or revoked: while it is missing the wallet's new orders that need it are
 * refused (order-commands.ts), and its open ones go now, before a match of theirs fails on chain.
 */
function changeApproval(ctx: ApplyContext, a: ChainApproval): void {
  if (!ctx.state.chainIndex.missingApprovals.set(a.account, a.approval, a.approved) || a.approved) return;
  cancelUnfunded(ctx, (order) => order.account === a.account && approvalsNeeded(order, ctx.state.markets.get(order.marketId)!).includes(a.approval));
}

/**
 * Debits what wallets still owe, as far as their balances now allow, in key order: the order a
 * snapshot restores them in, so a replay through one numbers the debits alike.
 */
export function settleShortfalls(ctx: ApplyContext): void {
  const { shortfalls } = ctx.state.chainIndex;
  for (const [key, shortfall] of [...shortfalls].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const left = debit(ctx, shortfall.account, shortfall.asset, shortfall.amount, `chain-shortfall:${ctx.state.chainIndex.cursor}`);
    if (left === shortfall.amount) continue;
    ctx.effects.chainIndexChanged = true;
    if (left === 0n) shortfalls.delete(key);
    else shortfall.amount = left;
  }
}

function owe(ctx: ApplyContext, t: ChainTransfer): void {
  const left = debit(ctx, t.account, t.asset, t.amount, t.ref);
  if (left === 0n) return;
  const key = `${t.account}|${t.asset}`;
  const known = ctx.state.chainIndex.shortfalls.get(key);
  if (known) known.amount += left;
  else ctx.state.chainIndex.shortfalls.set(key, { account: t.account, asset: t.asset, amount: left });
  ctx.effects.warn({ account: t.account, asset: t.asset, shortfall: left.toString(), ref: t.ref }, 'a wallet sent out on chain more than the ledger can debit now (locked by unsettled trades); the rest is debited when they fail or settle');
}

/**
 * Moves up to `amount` of the account's asset to OUTSIDE, cancelling its open orders that reserve
 * the asset, newest first, while what is available does not cover it. Returns what is left.
 */
function debit(ctx: ApplyContext, account: string, asset: string, amount: bigint, ref: string): bigint {
  const { balances, ledger } = ctx.state;
  if (balances.available(account, asset) < amount) uncover(ctx, account, asset, amount);
  const available = balances.available(account, asset);
  const taken = available < amount ? available : amount;
  if (taken > 0n) ledger.record([transferPosting({ from: account, to: OUTSIDE, asset, amount: taken, kind: CHAIN_TRANSFER_KIND, ref })], ctx.atMs);
  return amount - taken;
}

/** Cancels the account's open orders reserving `asset`, newest first, until `amount` is available or none is left. */
function uncover(ctx: ApplyContext, account: string, asset: string, amount: bigint): void {
  cancelUnfunded(
    ctx,
    (order) => order.account === account && (order.side === 'BUY' ? COLLATERAL : order.tokenId) === asset && reservationFor(termsOf(order), remainingOf(order)) > 0n,
    () => ctx.state.balances.available(account, asset) >= amount,
  );
}

/** Cancels the open orders `unfunded` picks (`UNFUNDED`), newest first, until `covered` holds or none is left. */
function cancelUnfunded(ctx: ApplyContext, unfunded: (order: EngineOrder) => boolean, covered: () => boolean = () => false): void {
  const picked = [...ctx.state.open.values()].filter(unfunded).sort((a, b) => (a.bookSeq > b.bookSeq ? -1 : a.bookSeq < b.bookSeq ? 1 : 0));
  for (const order of picked) {
    if (covered()) return;
    closeOpenOrder(ctx, order.id, 'UNFUNDED');
  }
}

/**
 * Credits an incoming transfer: from what OUTSIDE holds of the asset first (value that left comes
 * back), the rest as new value. New collateral is credited; a new outcome token is the half of a
 * complete set split outside the exchange: OUTSIDE splits it (from its collateral first, the rest
 * credited), keeps the other token and sends this one, which keeps every market's supply equal to
 * its lock.
 */
function receive(ctx: ApplyContext, t: ChainTransfer): void {
  const { balances, ledger } = ctx.state;
  const back = min(t.amount, balances.available(OUTSIDE, t.asset));
  const postings: Posting[] = [];
  if (back > 0n) postings.push(transferPosting({ from: OUTSIDE, to: t.account, asset: t.asset, amount: back, kind: CHAIN_TRANSFER_KIND, ref: t.ref }));
  const fresh = t.amount - back;
  if (fresh > 0n && t.asset === COLLATERAL) {
    postings.push(creditPosting(t.account, fresh, CHAIN_DEPOSIT_KIND, t.ref));
    ledger.credited += fresh;
  } else if (fresh > 0n) {
    const market = ctx.state.marketOfTokenId(t.asset);
    // The indexer passes only the tokens of markets the engine knows, and markets are never forgotten.
    if (!market) throw new Error(`chain transfer ${t.ref}: token ${t.asset} belongs to no market the engine knows`);
    const tokens = tokensOf(market.info);
    ledger.register(tokens);
    // OUTSIDE splits the set (crediting what collateral it lacks) and sends the wallet its token.
    const missing = fresh - min(fresh, balances.available(OUTSIDE, COLLATERAL));
    if (missing > 0n) postings.push(creditPosting(OUTSIDE, missing, CHAIN_DEPOSIT_KIND, t.ref));
    postings.push(splitPosting(OUTSIDE, tokens, fresh, t.ref));
    postings.push(transferPosting({ from: OUTSIDE, to: t.account, asset: t.asset, amount: fresh, kind: CHAIN_TRANSFER_KIND, ref: t.ref }));
    ledger.credited += missing;
  }
  ledger.record(postings, ctx.atMs);
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
