import type { MarketTradingInfo } from '../types.ts';
import type { Side } from './types.ts';

/**
 * The approvals of a user's wallet without which its matches cannot settle (contracts/README.md
 * "Proxy wallets": the factory gives all four when it deploys the wallet). Per exchange, the
 * standard one or the neg-risk one by the order's market: the collateral's ERC-20 allowance, which
 * a BUY order needs (the exchange pulls its cost), and ConditionalTokens' approval-for-all, which a
 * SELL order needs (the exchange pulls its tokens).
 */
export type Approval = `${'exchange' | 'neg-risk-exchange'}:${'collateral' | 'outcome-tokens'}`;

/**
 * An approval of a user's wallet as the chain's last log in a range left it (src/engine/README.md
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

/** The approval an order needs, by its side and its market's exchange. */
export function approvalNeeded(side: Side, market: Pick<MarketTradingInfo, 'negRisk'>): Approval {
  return `${market.negRisk ? 'neg-risk-exchange' : 'exchange'}:${side === 'BUY' ? 'collateral' : 'outcome-tokens'}`;
}

/** Why a new order is refused while its wallet lacks the approval (a client reads it beside INSUFFICIENT_BALANCE). */
export function missingApprovalMessage(account: string, approval: Approval): string {
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
