import { onChainOr503 } from '../contract/errors.ts';
import type { SplitOutcome } from '../engine/state/balance-commands.ts';
import { userAccount } from '../settlement/accounts.ts';
import { conditionOf, engineAfterChain, walletOf, type ChainFirstDeps } from './chain-first.ts';
import type { PositionHolder } from './operations.ts';

/**
 * A split on chain, then in the engine: the wallet's collateral becomes a complete set through
 * its `splitPosition`, then the journaled split moves the ledger the same way. The engine refusing
 * (its available collateral spent meanwhile by an order) merges the set back on chain. What the
 * engine would refuse anyway (an inactive market, too little available) it refuses before the
 * chain is asked anything.
 */
export async function splitChainFirst(deps: ChainFirstDeps, holder: PositionHolder, marketId: string, amount: bigint): Promise<SplitOutcome> {
  const { engine, positions } = deps;
  const account = userAccount(holder.proxyWallet);
  const info = engine.reads.market(marketId);
  const available = engine.reads.balances(account).collateral.available;
  if (info?.status !== 'ACTIVE' || info.isResolved || available < amount) return engine.split({ account, marketId, amount });
  const condition = conditionOf(info.conditionId);
  const txHash = await onChainOr503(`split in market ${marketId}`, () => positions.split(walletOf(holder), condition, amount));
  const split = await engineAfterChain(deps, 'split', () => engine.split({ account, marketId, amount, chainTxHash: txHash }), () => positions.merge(walletOf(holder), condition, amount));
  return split.ok ? { ok: true, txHash } : split;
}
