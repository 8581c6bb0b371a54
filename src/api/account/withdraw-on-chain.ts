import { relayWithdrawal, type ChainOperator, type DeployedContracts, type SignedWithdrawal } from '../../chain/index.ts';
import { AppError, badRequest } from '../../contract/errors.ts';
import { formatUnits } from '../../core/money.ts';
import { COLLATERAL, userAccount } from '../../settlement/index.ts';
import type { AppContext } from '../context.ts';

/**
 * A withdrawal on a chain with the exchange's contracts: simulated, journaled,
 * then relayed to the owner's proxy wallet (src/chain/wallet-withdrawal.ts); the answer is the
 * chain transaction's hash. When the send fails after the journal holds the withdrawal, the
 * wallet's nonce tells what happened: unspent on chain, nothing left the wallet, so a journaled
 * transfer back from where the ledger moved it (`receivedBy`: WITHDRAWN, or the receiving user's
 * account) undoes the ledger's side (the nonce stays spent in the ledger: the
 * owner signs again with another); spent, the chain does not say, or a chain with a mempool
 * (CHAIN=rpc) where it may still be mined, the ledger keeps the withdrawal and the failure is
 * logged for an operator to check (src/chain/README.md "Withdrawals").
 */
export async function withdrawOnChain(
  ctx: AppContext,
  chain: { operator: ChainOperator; deployed: DeployedContracts },
  withdrawal: SignedWithdrawal,
  record: () => Promise<unknown>,
  receivedBy: string,
): Promise<string> {
  // The wallet would refuse this too, but with a bare revert: checked first, the answer is the same
  // INSUFFICIENT_BALANCE as on CHAIN=none. The command checks it again, authoritatively, in the journal.
  const { available } = ctx.trading.engine.reads.balances(userAccount(withdrawal.wallet)).collateral;
  if (available < withdrawal.amountBaseUnits) throw new AppError('INSUFFICIENT_BALANCE', `insufficient collateral balance: ${formatUnits(available)} available, ${formatUnits(withdrawal.amountBaseUnits)} needed`);
  const relay = await relayWithdrawal(chain.operator, chain.deployed, withdrawal, record);
  if (relay.kind === 'sent') return relay.txHash;
  if (relay.kind === 'refused') throw badRequest(`the wallet refuses this withdrawal on chain: ${relay.reason}`);
  const account = userAccount(withdrawal.wallet);
  const details = { err: relay.error, wallet: account, to: withdrawal.to, nonce: String(withdrawal.nonce), amountBaseUnits: String(withdrawal.amountBaseUnits) };
  // Only a chain that mines what it accepts at once (the embedded anvil) makes "not spent" final; on
  // one with a mempool (CHAIN=rpc) the transaction may still be mined, and undoing the ledger's side
  // then would pay the collateral twice.
  const nothingLeft = relay.spentOnChain === false && ctx.chain.kind !== 'rpc';
  if (!nothingLeft) {
    ctx.logger.error({ ...details, spentOnChain: relay.spentOnChain }, 'a journaled withdrawal was sent but not confirmed: the ledger keeps it; check the wallet on chain');
    throw new AppError('SERVICE_UNAVAILABLE', 'the withdrawal is recorded but its transaction could not be confirmed; check the balance before trying again');
  }
  ctx.logger.warn(details, 'a journaled withdrawal did not reach the chain: its collateral goes back to the wallet in the ledger');
  await ctx.trading.engine.transfer({
    from: receivedBy, to: account, asset: COLLATERAL, amount: withdrawal.amountBaseUnits, why: 'WITHDRAW_REVERSED', ref: `withdraw-reversed:${account}:${withdrawal.nonce}`, once: true,
  });
  throw new AppError('SERVICE_UNAVAILABLE', 'the chain did not take the withdrawal and nothing moved; sign it again with a new nonce');
}
