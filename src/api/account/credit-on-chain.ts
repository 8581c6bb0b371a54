import type { Address } from 'viem';
import { FateUnknownError, fundingSourceOf, fundWallet, fundWalletOnce, giveOwnerGas, PaymentConflictError, treasuryShortfallOf } from '../../chain/index.ts';
import { AppError } from '../../contract/errors.ts';
import { formatUnits } from '../../core/money.ts';
import { CREDIT_KEY_REUSED } from '../../engine/state/balance-commands.ts';
import type { AppContext } from '../context.ts';

/**
 * A credit (the faucet, admin credits) on a chain with the exchange's contracts puts the collateral
 * in the user's wallet on chain first, the proxy wallet deployed (EXTENSIONS.md section 14: minted
 * on the local chain, CHAIN=embedded, where the owner gets gas as well; transferred from the
 * operator's treasury, its own balance, on any other), and only then makes `credit`, the ledger's side. So the ledger never shows collateral
 * the chain does not hold: a chain that does not take it (down, restarting) is answered 503 with
 * nothing credited, and the caller tries again; a treasury too short is 503 too, naming the
 * treasury and the shortfall, as only the operator's funding makes a retry work. A chain that stops answering
 * once a transaction was sent (until-mined.ts FateUnknownError, after 30 s) is answered 503 too,
 * but naming the transaction, which may yet be mined: trying again blindly could pay twice from a
 * treasury. The window left is the other
 * way round, and harmless: on chain, then the ledger's credit refused (the engine lost its lead,
 * say). The wallet then holds more than the ledger, which no order or withdrawal can spend, and
 * `pmx audit` names it (chain-balances). On CHAIN=none, `credit` alone.
 *
 * With an idempotency key (admin credits), both sides are made once per key, so any unclear answer
 * can be followed by the same request: the transaction is recorded before it is sent and asked
 * again it sends nothing more (chain/once-payments.ts: once mined, its hash; still pending, the
 * same transaction), and the ledger's credit is made once per key (the engine's `credit`). The same
 * key with another amount or wallet is a CONFLICT on either side, and moves nothing.
 */
export async function creditThroughChain<T>(ctx: AppContext, to: { owner: Address; wallet: Address }, amountBaseUnits: bigint, credit: () => Promise<T>, idempotencyKey?: string): Promise<T> {
  const { operator, deployed, kind } = ctx.chain;
  if (!operator || !deployed || kind === 'none') return credit();
  const details = { wallet: to.wallet, amountBaseUnits: String(amountBaseUnits) };
  try {
    if (idempotencyKey !== undefined && ctx.payers) await fundWalletOnce(operator, deployed, ctx.payers.reward, to, amountBaseUnits, `admin-credit:${idempotencyKey}`);
    else await fundWallet(operator, deployed, to, amountBaseUnits, fundingSourceOf(kind));
  } catch (error) {
    if (error instanceof PaymentConflictError) throw new AppError('CONFLICT', CREDIT_KEY_REUSED);
    if (error instanceof FateUnknownError) {
      ctx.logger.error({ err: error, ...details, txHash: error.hashes.at(-1) }, 'a credit was sent on chain and the chain stopped answering: the wallet may hold it, the ledger does not');
      const next = idempotencyKey === undefined ? 'check the transaction before trying again' : 'send the same request again, with the same idempotencyKey: it pays once';
      throw new AppError('SERVICE_UNAVAILABLE', `the credit's transaction ${error.hashes.at(-1)} was sent, and the chain stopped answering before it was seen mined: the wallet may hold the collateral already, and nothing was credited in the ledger; ${next}`);
    }
    const short = treasuryShortfallOf(error);
    if (short) {
      // Trying again cannot help until the operator funds the treasury: say so, to the caller and in the log.
      const why = `the operator's treasury ${short.holder} holds ${formatUnits(short.balance)} collateral, less than the ${formatUnits(short.needed)} this credit needs`;
      ctx.logger.error({ ...details, treasury: short.holder }, `${why}: fund it (transfer collateral to that address)`);
      throw new AppError('SERVICE_UNAVAILABLE', `${why}, so nothing was credited; the operator must fund the treasury before a credit can succeed`);
    }
    ctx.logger.warn({ err: error, ...details }, 'a credit did not reach the chain: nothing was credited');
    throw new AppError('SERVICE_UNAVAILABLE', `the chain did not take the credit, so nothing was credited; try again (${reasonOf(error)})`);
  }
  // On the local chain the owner gets gas too (owner-gas.ts); a credit does not fail for want of it.
  if (ctx.chain.embedded) await giveOwnerGas(ctx.chain.embedded.url, to.owner).catch((error: unknown) => ctx.logger.warn({ err: error, owner: to.owner }, 'the owner was given no gas on the local chain'));
  try {
    return await credit();
  } catch (error) {
    ctx.logger.error({ err: error, ...details }, 'a credit reached the chain but the ledger refused it: the wallet holds more than the ledger');
    throw error;
  }
}

/** The first line of a chain error (viem's messages go on with request details). */
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
