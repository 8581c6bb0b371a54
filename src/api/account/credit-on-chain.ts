import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { FateUnknownError, fundWalletOnce, giveOwnerGas, PaymentConflictError, treasuryShortfallOf } from '../../chain/index.ts';
import { AppError, outcomeOrThrow } from '../../contract/errors.ts';
import { formatUnits } from '../../core/money.ts';
import type { MatchingEngine } from '../../engine/engine.ts';
import { CREDIT_KEY_REUSED } from '../../engine/state/balance-commands.ts';
import { userAccount } from '../../settlement/index.ts';
import type { CreditReason } from '../../settlement/types.ts';
import type { AppContext } from '../context.ts';

/** What asks for a credit: POST /admin/credits or POST /account/faucet. */
export type CreditKind = 'admin-credit' | 'faucet';

const REASONS: Record<CreditKind, CreditReason> = { 'admin-credit': 'DEPOSIT', faucet: 'FAUCET' };

/** The credits' records of payments on chain (chain_payment_intents) are keyed `<kind>:<idempotency key>`. */
export const CREDIT_PAYMENT_PREFIXES: readonly string[] = Object.keys(REASONS).map((kind) => `${kind}:`);

export interface CreditedUser {
  id: string;
  address: Address;
  proxyWallet: Address;
}

/** The ledger's side of a credit, made once per key: the engine's `credit` to the user's wallet account. */
export async function creditLedger(engine: Pick<MatchingEngine, 'credit'>, kind: CreditKind, user: CreditedUser, amountBaseUnits: bigint, idempotencyKey: string | undefined) {
  return engine.credit({ account: userAccount(user.proxyWallet), amount: amountBaseUnits, reason: REASONS[kind], ref: `${kind}:${user.id}`, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });
}

/**
 * A credit (the faucet, admin credits) on a chain with the exchange's contracts puts the collateral
 * in the user's wallet on chain first, the proxy wallet deployed (EXTENSIONS.md section 14: minted
 * on the local chain, CHAIN=embedded, where the owner gets gas as well; transferred from the
 * operator's treasury, its own balance, on any other), and only then makes the ledger's side. So
 * the ledger never shows collateral the chain does not hold: a chain that does not take it (down,
 * restarting) is answered 503 with nothing credited, and the caller tries again; a treasury too
 * short is 503 too, naming the treasury and the shortfall, as only the operator's funding makes a
 * retry work. A chain that stops answering once a transaction was sent (until-mined.ts
 * FateUnknownError, after 30 s) is answered 503 too, naming the transaction, which may yet be
 * mined.
 *
 * Both sides are made once per key: the request's idempotency key (admin credits), or one made
 * here. The transaction is recorded under it before it is sent, and asked again sends nothing more
 * (chain/once-payments.ts: once mined, its hash; still pending, the same transaction); the ledger's
 * credit is made once per key (the engine's `credit`). The same key with another amount or wallet
 * is a CONFLICT on either side, and moves nothing. A credit cut between its two sides (the server
 * stopped, the engine lost its lead) is completed by the leader (payment-completion.ts), so the
 * wallet never keeps more than the ledger says.
 */
export async function creditThroughChain(ctx: AppContext, kind: CreditKind, user: CreditedUser, amountBaseUnits: bigint, requestKey?: string) {
  const { operator, deployed } = ctx.chain;
  if (!operator || !deployed || !ctx.payers) return outcomeOrThrow(await creditLedger(ctx.trading.engine, kind, user, amountBaseUnits, requestKey));
  const idempotencyKey = requestKey ?? randomUUID();
  const details = { wallet: user.proxyWallet, amountBaseUnits: String(amountBaseUnits) };
  try {
    await fundWalletOnce(operator, deployed, ctx.payers.reward, { owner: user.address, wallet: user.proxyWallet }, amountBaseUnits, `${kind}:${idempotencyKey}`);
  } catch (error) {
    if (error instanceof PaymentConflictError) throw new AppError('CONFLICT', CREDIT_KEY_REUSED);
    if (error instanceof FateUnknownError) {
      ctx.logger.error({ err: error, ...details, txHash: error.hashes.at(-1) }, 'a credit was sent on chain and the chain stopped answering: the ledger side is made once it is mined');
      const next = requestKey === undefined ? 'it is credited if it is mined; check the balance before trying again' : 'send the same request again, with the same idempotencyKey: it pays once';
      throw new AppError('SERVICE_UNAVAILABLE', `the credit's transaction ${error.hashes.at(-1)} was sent, and the chain stopped answering before it was seen mined: nothing was credited yet; ${next}`);
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
  if (ctx.chain.embedded) await giveOwnerGas(ctx.chain.embedded.url, user.address).catch((error: unknown) => ctx.logger.warn({ err: error, owner: user.address }, 'the owner was given no gas on the local chain'));
  try {
    return outcomeOrThrow(await creditLedger(ctx.trading.engine, kind, user, amountBaseUnits, idempotencyKey));
  } catch (error) {
    ctx.logger.error({ err: error, ...details }, 'a credit reached the chain but the ledger refused it: the leader completes it');
    throw error;
  }
}

/** The first line of a chain error (viem's messages go on with request details). */
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
