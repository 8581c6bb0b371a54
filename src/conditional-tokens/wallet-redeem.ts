import { chainUnavailable, onChainOr503 } from '../contract/errors.ts';
import type { RedeemOutcome } from '../engine/state/balance-commands.ts';
import type { MarketTradingInfo } from '../engine/types.ts';
import { userAccount } from '../settlement/accounts.ts';
import { conditionOf, walletOf, type ChainFirstDeps } from './chain-first.ts';
import { byReason } from './exclusions.ts';
import type { PositionHolder } from './operations.ts';
import type { ResolutionReporter } from './resolution-reporter.ts';

type Exclusion = RedeemOutcome['excluded'][number];

/**
 * A batch redeem on chain, then in the engine. A market resolved in the engine whose wallet holds
 * none of its tokens on chain is `zero-onchain-balance`; each other one has its outcome reported on
 * chain first if the reporter has not yet (a redeem must not wait for a retry), then
 * `redeemPositions` pays the wallet, one transaction per market; then the engine's redeem of
 * those markets records the same payout in the ledger. A redeem cannot be undone on chain, so
 * when the chain fails part way the engine still records the markets it redeemed, and the caller
 * gets a 503 to send the rest again. The answer's txHash is the last redeem's transaction.
 */
export async function redeemChainFirst(deps: ChainFirstDeps & { reporter: ResolutionReporter }, holder: PositionHolder, marketIds: string[]): Promise<RedeemOutcome> {
  const { engine, positions } = deps;
  const excluded: Exclusion[] = [];
  const resolved: MarketTradingInfo[] = [];
  for (const marketId of marketIds) {
    const info = engine.reads.market(marketId);
    if (info && engine.reads.payoutOf(marketId)) resolved.push(info);
    else excluded.push({ marketId, reason: 'not-redeemable' });
  }
  const held = await onChainOr503('read the wallet\'s balances', () => positions.balances(holder.proxyWallet, resolved.flatMap((m) => [m.tokenId1, m.tokenId2])));
  const holding = resolved.filter((info, index) => {
    const holds = held[2 * index]! > 0n || held[2 * index + 1]! > 0n;
    if (!holds) excluded.push({ marketId: info.id, reason: 'zero-onchain-balance' });
    return holds;
  });
  const redeemed: string[] = [];
  let txHash = '';
  let failure: unknown;
  try {
    for (const info of holding) {
      await deps.reporter.reportNow(info.id);
      txHash = await positions.redeem(walletOf(holder), conditionOf(info.conditionId));
      redeemed.push(info.id);
    }
  } catch (error) {
    failure = error;
  }
  const outcome = redeemed.length > 0 ? await engine.redeem({ userId: holder.userId, account: userAccount(holder.proxyWallet), marketIds: redeemed, chainTxHash: txHash }) : undefined;
  const unpaid = outcome?.excluded ?? [];
  if (unpaid.length > 0) deps.logger.warn({ wallet: holder.proxyWallet, markets: unpaid }, 'redeemed on chain, but the ledger held nothing to redeem: the chain paid what the ledger does not show');
  if (failure !== undefined) throw chainUnavailable('redeem every market', failure);
  return { ok: true, txHash, redeemed: outcome?.redeemed ?? [], excluded: byReason([...excluded, ...unpaid], ['not-redeemable', 'zero-onchain-balance'], marketIds) };
}
