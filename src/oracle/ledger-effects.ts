import type { FastifyBaseLogger } from 'fastify';
import type { OracleEffect } from '../core/oracle/state-machine.ts';
import { FEE_ACCOUNT, REWARD_TREASURY } from '../settlement/accounts.ts';
import { COLLATERAL, type Settlement } from '../settlement/types.ts';
import type { Db } from '../store/database.ts';

/**
 * Applies the state machine's ledger effects in the caller's transaction. Bonds are reserved in the
 * holder's own collateral (EXTENSIONS.md section 11: balance unchanged, available lower); a
 * reservation the holder cannot cover throws InsufficientBalanceError, which rolls everything back.
 * Rewards come from the reward treasury: when it cannot cover one, the settlement still happens and
 * the reward is skipped with a warning (an oracle question must never stay open for lack of funds).
 */
export async function applyLedgerEffects(tx: Db, settlement: Settlement, logger: FastifyBaseLogger, marketId: string, effects: OracleEffect[]): Promise<void> {
  for (const effect of effects) {
    switch (effect.kind) {
      case 'lock':
        await settlement.reserve(tx, { account: effect.account, asset: COLLATERAL, amount: effect.amount, ref: effect.ref });
        break;
      case 'unlock':
        await settlement.release(tx, { account: effect.account, asset: COLLATERAL, amount: effect.amount, ref: effect.ref });
        break;
      case 'pay': {
        const from = effect.from === 'treasury' ? REWARD_TREASURY : effect.from;
        if (effect.from === 'treasury' && (await settlement.balances(tx, REWARD_TREASURY)).collateral.available < effect.amount) {
          logger.warn({ marketId, amount: effect.amount.toString() }, 'reward treasury cannot cover the oracle reward; settled without it');
          break;
        }
        const to = effect.to === 'fees' ? FEE_ACCOUNT : effect.to;
        await settlement.transfer(tx, { from, to, asset: COLLATERAL, amount: effect.amount, kind: effect.why, ref: `oracle:${marketId}` });
        break;
      }
    }
  }
}
