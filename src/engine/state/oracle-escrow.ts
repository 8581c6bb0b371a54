import { REWARD_TREASURY } from '../../settlement/accounts.ts';
import { COLLATERAL } from '../../settlement/types.ts';
import type { MarketTradingInfo } from '../types.ts';
import type { ApplyContext } from './apply-context.ts';

/**
 * The oracle reward of a market (EXTENSIONS.md section 11) is set aside when the market is
 * published: reserved in the reward treasury (balance unchanged, available lower, as a bond is in
 * its holder's), so maker reward payouts cannot spend what a proposer was promised. The question's
 * settlement releases it and pays the reward from the treasury in the same record; a market that
 * resolves without paying it (the operator's side was right, a neg-risk sibling forced NO) gives
 * it back.
 * A treasury that cannot cover it at publication escrows nothing, and the reward is then paid at
 * settlement only if the treasury covers it by then, as before escrows.
 */
export function escrowOracleReward(ctx: ApplyContext, info: MarketTradingInfo): void {
  const reward = BigInt(info.oracleReward ?? '0');
  if (reward === 0n) return;
  const { balances } = ctx.state;
  if (balances.available(REWARD_TREASURY, COLLATERAL) < reward) {
    ctx.effects.warn({ marketId: info.id, amount: reward.toString() }, 'reward treasury cannot escrow the oracle reward at publication; it is paid at settlement only if the treasury covers it then');
    return;
  }
  balances.reserve(REWARD_TREASURY, COLLATERAL, reward);
  ctx.state.oracleEscrows.set(info.id, reward);
}

/** Gives a market's escrowed reward back to the treasury's available balance (nothing when none is escrowed). */
export function releaseOracleEscrow(ctx: ApplyContext, marketId: string): void {
  const escrowed = ctx.state.oracleEscrows.get(marketId);
  if (escrowed === undefined) return;
  ctx.state.balances.release(REWARD_TREASURY, COLLATERAL, escrowed);
  ctx.state.oracleEscrows.delete(marketId);
}
