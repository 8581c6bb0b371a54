import type { FastifyBaseLogger } from 'fastify';
import { relayWithdrawal, type ChainOperator, type DeployedContracts, type PaymentIntents, type SignedWithdrawal, type WithdrawalOnChain } from '../../chain/index.ts';
import { AppError, badRequest } from '../../contract/errors.ts';
import { formatUnits } from '../../core/money.ts';
import { COLLATERAL, userAccount } from '../../settlement/index.ts';
import type { MatchingEngine } from '../../engine/engine.ts';
import type { Db } from '../../store/database.ts';
import { proxyWalletsAmong } from '../../store/users-repository.ts';
import type { AppContext } from '../context.ts';

/**
 * A withdrawal on a chain with the exchange's contracts: simulated, journaled, then relayed to the
 * owner's proxy wallet through the records of payments (src/chain/wallet-withdrawal.ts); the
 * answer is the chain transaction's hash. When the wallet refuses it after the journal (a revert
 * the simulation did not foresee) with its nonce unspent, a journaled transfer back from where the
 * ledger moved it (`receivedBy`: WITHDRAWN, or the receiving user's account) undoes the ledger's
 * side (the nonce stays spent in the ledger: the owner signs again with another). When the chain
 * does not answer, the ledger keeps the withdrawal and the leader sends its recorded transaction
 * when it answers again (payment-completion.ts): the caller is told not to sign it again.
 */
export async function withdrawOnChain(
  ctx: AppContext,
  chain: { operator: ChainOperator; deployed: DeployedContracts; intents: PaymentIntents },
  withdrawal: SignedWithdrawal,
  record: () => Promise<unknown>,
  receivedBy: string,
): Promise<string> {
  // The wallet would refuse this too, but with a bare revert: checked first, the answer is the same
  // INSUFFICIENT_BALANCE as on CHAIN=none. The command checks it again, authoritatively, in the journal.
  const { available } = ctx.trading.engine.reads.balances(userAccount(withdrawal.wallet)).collateral;
  if (available < withdrawal.amountBaseUnits) throw new AppError('INSUFFICIENT_BALANCE', `insufficient collateral balance: ${formatUnits(available)} available, ${formatUnits(withdrawal.amountBaseUnits)} needed`);
  const account = userAccount(withdrawal.wallet);
  const details = { wallet: account, to: withdrawal.to, nonce: String(withdrawal.nonce), amountBaseUnits: String(withdrawal.amountBaseUnits) };
  const undo = withdrawalUndo(ctx.trading.engine, { account, nonce: withdrawal.nonce, amountBaseUnits: withdrawal.amountBaseUnits, receivedBy });
  let recorded = false;
  const journal = async () => {
    await record();
    recorded = true;
  };
  const relay = await relayWithdrawal(chain.operator, chain.deployed, chain.intents, withdrawal, { record: journal, ...undo }).catch((error: unknown) => {
    if (!recorded) throw error;
    ctx.logger.warn({ err: error, ...details }, 'a journaled withdrawal was not seen mined: the ledger keeps it, and the leader sends it when the chain answers');
    throw new AppError('SERVICE_UNAVAILABLE', 'the withdrawal is recorded, and its transaction is sent once the chain answers again: do not sign it again; its collateral leaves the wallet then');
  });
  switch (relay.kind) {
    case 'sent':
      return relay.txHash;
    case 'refused':
      throw badRequest(`the wallet refuses this withdrawal on chain: ${relay.reason}`);
    case 'reversed':
      logWalletRefusal(ctx.logger, details, relay);
      throw new AppError('SERVICE_UNAVAILABLE', `the chain refused the withdrawal (${relay.reason}) and nothing moved; sign it again with a new nonce`);
    case 'nonce-spent':
      logWalletRefusal(ctx.logger, details, relay);
      throw new AppError('SERVICE_UNAVAILABLE', "the wallet refused the withdrawal: its nonce was spent by another transaction of the owner's signature; check the balance");
  }
}

/** The log line of a journaled withdrawal the wallet refused (the route's and the leader's completion's): undone in the ledger, or kept for an operator. One undone at an earlier settling is not logged again. */
export function logWalletRefusal(logger: Pick<FastifyBaseLogger, 'warn' | 'error'>, details: object, settled: WithdrawalOnChain): void {
  if (settled.kind === 'reversed' && !settled.before) logger.warn({ ...details, reason: settled.reason }, 'a journaled withdrawal was refused on chain: its collateral went back to the wallet in the ledger');
  if (settled.kind === 'nonce-spent') logger.error({ ...details, reason: settled.reason }, 'a journaled withdrawal was refused on chain, its nonce spent by another transaction: the ledger keeps it; check the wallet on chain');
}

/** Where a withdrawal to `to` moves its collateral in the ledger: a user's wallet keeps it in the exchange, in that user's account. */
export async function withdrawalReceiver(db: Db, to: string): Promise<string | undefined> {
  const account = userAccount(to);
  return (await proxyWalletsAmong(db, [account])).size > 0 ? account : undefined;
}

/**
 * Undoing a journaled withdrawal's ledger side, once (its reference names the wallet and nonce):
 * `reverse` moves the collateral back from where the withdrawal moved it; `reversed` says whether
 * that was done, after which its transaction must never be sent again.
 */
export function withdrawalUndo(engine: Pick<MatchingEngine, 'transfer' | 'reads'>, w: { account: string; nonce: bigint; amountBaseUnits: bigint; receivedBy: string }) {
  const ref = `withdraw-reversed:${w.account}:${w.nonce}`;
  return {
    reversed: () => engine.reads.onceTransaction(ref) !== undefined,
    reverse: () => engine.transfer({ from: w.receivedBy, to: w.account, asset: COLLATERAL, amount: w.amountBaseUnits, why: 'WITHDRAW_REVERSED', ref, once: true }),
  };
}
