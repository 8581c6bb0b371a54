import type { RevertReason } from '../../settlement/chain/sender/index.ts';
import type { MatchFill } from './match-call.ts';

/**
 * The orders a match's revert blames: those whose EIP-712 hash or whose wallet the contract's
 * error names (`InvalidSignature(orderHash)`, `ProxyWalletNotDeployed(wallet)`, the collateral's
 * `ERC20InsufficientBalance(wallet, …)`). A revert that names none (ConditionalTokens' require
 * strings, an unknown revert) blames every order of the match: none of them can settle as it is.
 */
export function faultOrderIds(fill: MatchFill, reason: RevertReason): string[] {
  const blamed = new Set<string>();
  for (const arg of reason.args) {
    if (typeof arg !== 'string') continue;
    const value = arg.toLowerCase();
    const byHash = fill.orderIdByHash.get(value);
    if (byHash) blamed.add(byHash);
    for (const id of fill.orderIdsByWallet.get(value) ?? []) blamed.add(id);
  }
  return blamed.size > 0 ? [...blamed] : [...fill.orderIdByHash.values()];
}
