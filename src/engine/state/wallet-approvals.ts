import type { MarketTradingInfo } from '../types.ts';
import type { Side } from './types.ts';

/**
 * The approvals of a user's wallet without which its matches cannot settle (contracts/README.md
 * "Proxy wallets": the factory gives all of them when it deploys the wallet). Per exchange, the
 * standard one or the neg-risk one by the order's market: the collateral's ERC-20 allowance, which
 * a BUY order needs (the exchange pulls its cost), and ConditionalTokens' approval-for-all, which a
 * SELL order needs (the exchange pulls its tokens). And the wallet's own `operatorTrading`, which an
 * unsigned order needs (the exchange settles it on the operator's word only while the owner leaves
 * it on: `ProxyWallet.setOperatorTrading`).
 */
export type Approval = `${'exchange' | 'neg-risk-exchange'}:${'collateral' | 'outcome-tokens'}` | typeof OPERATOR_TRADING;

export const OPERATOR_TRADING = 'wallet:operator-trading';

/**
 * An approval of a user's wallet as the chain's last log in a range left it (docs/engine.md
 * "Balances from the chain"). The rule: a collateral allowance of zero is missing, any other is
 * given; an approval-for-all is missing when turned off. A nonzero allowance below what the
 * wallet's orders need is not followed: the exchange spends an allowance without a log (OpenZeppelin's
 * `transferFrom` emits no `Approval`), so the indexer could not know what is left of it; such a match
 * fails at settlement, as any unfunded one does.
 */
export interface ChainApproval {
  /** Where it happened (`<txHash>:<logIndex>`). */
  readonly ref: string;
  /** The user's wallet. */
  readonly account: string;
  readonly approval: Approval;
  readonly approved: boolean;
}

/** The approvals an order needs: by its side and its market's exchange, and operator trading when it is unsigned. */
export function approvalsNeeded(order: { side: Side; unsigned?: true | undefined }, market: Pick<MarketTradingInfo, 'negRisk'>): Approval[] {
  const transfer: Approval = `${market.negRisk ? 'neg-risk-exchange' : 'exchange'}:${order.side === 'BUY' ? 'collateral' : 'outcome-tokens'}`;
  return order.unsigned ? [transfer, OPERATOR_TRADING] : [transfer];
}

/**
 * The approval a balance is spent through on the exchange (EXTENSIONS.md section 14: `available` is
 * what the wallet holds "and has approved to the exchange"): collateral through the exchange's
 * collateral allowance (BUY orders), an outcome token through its market's exchange's approval-for-all
 * (SELL orders). Collateral is the exchange's, GET /exchange's `exchangeAddress`: the neg-risk
 * exchange's allowance governs only the orders of neg-risk markets, refused while it is revoked.
 */
export function spendingApproval(asset: 'collateral' | Pick<MarketTradingInfo, 'negRisk'>): Approval {
  return asset === 'collateral' ? 'exchange:collateral' : `${asset.negRisk ? 'neg-risk-exchange' : 'exchange'}:outcome-tokens`;
}

/**
 * Why a new order is refused while its wallet lacks the approval, with the code a client reads:
 * an exchange's approval is as short a balance, INSUFFICIENT_BALANCE; operator trading is a
 * signature the order needs, ORDER_SIGNATURE_REQUIRED.
 */
export function missingApprovalRefusal(account: string, approval: Approval): { code: 'INSUFFICIENT_BALANCE' | 'ORDER_SIGNATURE_REQUIRED'; message: string } {
  if (approval === OPERATOR_TRADING) {
    return { code: 'ORDER_SIGNATURE_REQUIRED', message: `the owner of the wallet ${account} turned operator trading off on chain, so its unsigned orders cannot settle: sign the order (or turn it on again: ProxyWallet.setOperatorTrading(true))` };
  }
  return { code: 'INSUFFICIENT_BALANCE', message: missingExchangeApprovalMessage(account, approval) };
}

function missingExchangeApprovalMessage(account: string, approval: Approval): string {
  const [exchange, asset] = approval.split(':') as [string, string];
  const where = exchange === 'exchange' ? 'the exchange' : 'the neg-risk exchange';
  const call = asset === 'collateral' ? 'the collateral\'s approve(exchange, amount)' : 'ConditionalTokens\' setApprovalForAll(exchange, true)';
  return `the wallet ${account} revoked ${where}'s ${asset} approval on chain, so its ${asset === 'collateral' ? 'BUY' : 'SELL'} orders there cannot settle: approve it again (${call})`;
}

/** The approvals wallets revoked, by account; a wallet not here has all four. */
export class MissingApprovals {
  private readonly byAccount = new Map<string, Set<Approval>>();

  has(account: string, approval: Approval): boolean {
    return this.byAccount.get(account)?.has(approval) ?? false;
  }

  /** The approvals `account` revoked. */
  of(account: string): Approval[] {
    return [...(this.byAccount.get(account) ?? [])];
  }

  /** Records an approval given or revoked; whether that changed what is missing. */
  set(account: string, approval: Approval, approved: boolean): boolean {
    const missing = this.byAccount.get(account);
    if (approved) {
      if (!missing?.delete(approval)) return false;
      if (missing.size === 0) this.byAccount.delete(account);
      return true;
    }
    if (missing?.has(approval)) return false;
    if (missing) missing.add(approval);
    else this.byAccount.set(account, new Set([approval]));
    return true;
  }

  get size(): number {
    return this.byAccount.size;
  }

  /** Every account's missing approvals, accounts and approvals sorted (the snapshot's canonical order). */
  entries(): [string, Approval[]][] {
    return [...this.byAccount].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([account, missing]) => [account, [...missing].sort()]);
  }
}
