import { getAddress, zeroAddress, type Hex } from 'viem';
import { formatUnits } from '../../core/money.ts';
import { orderDomains } from '../../core/orders/eip712-order.ts';
import { userAccount, WITHDRAWN } from '../../settlement/index.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { WithdrawBody, WithdrawResponse } from '../../contract/account.ts';
import { errorResponses } from '../../contract/common.ts';
import { AppError, badRequest, outcomeOrThrow } from '../../contract/errors.ts';
import type { Caller } from '../../identity/caller.ts';
import type { SignedWithdrawal } from '../../chain/index.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import { withdrawalReceiver, withdrawOnChain } from './withdraw-on-chain.ts';
import { withdrawSigner } from './withdraw-signature.ts';
import type { WalletRelays } from '../wallet-relays.ts';

const UINT256_LIMIT = 2n ** 256n;

/**
 * POST /account/withdraw (EXTENSIONS.md section 14): collateral leaves the caller's wallet for `to`
 * on the owner's EIP-712 signature, which an API key or a session cannot make. The engine's
 * withdraw command spends the nonce and the available collateral; with the exchange's contracts on
 * chain, the signature is relayed to the wallet's own `withdraw` (withdraw-on-chain.ts).
 */
export function registerWithdrawRoutes(api: TypedApp, ctx: AppContext, relays: WalletRelays): void {
  const domain = orderDomains(ctx.config).exchange;

  api.post('/account/withdraw', {
    config: { auth: 'jwtOrApiKey', engineCommand: true },
    schema: {
      tags: ['account'],
      summary: "Send collateral out of the caller's wallet, on the wallet owner's EIP-712 Withdraw signature",
      description:
        'Signed by the sign-in address: `Withdraw(address to,uint256 amount,uint256 nonce)` under the order domain of GET /exchange ' +
        '(name EXCHANGE_NAME, version "1", chainId, verifyingContract the exchange), `amount` in base units (6 decimals). Each nonce once per wallet. ' +
        "Answers the chain transaction's hash once mined (CHAIN=none: the ledger transaction's). 400 INVALID_SIGNATURE when the signature is not the owner's, " +
        'INSUFFICIENT_BALANCE above `available` (what open orders reserve stays), VALIDATION_FAILED for a spent nonce, an amount below WITHDRAW_MIN_USDC ' +
        '(1 USDC on CHAIN=rpc, where each withdrawal costs the operator gas; none elsewhere) or a call the chain would revert; nothing moves then. ' +
        '429 RATE_LIMITED while 8 requests of the same wallet are being sent on chain (withdrawals, splits, merges, redeems; Retry-After: 1). ' +
        '503 SERVICE_UNAVAILABLE when the chain fails once the withdrawal is recorded: its message says whether it is sent when the chain answers again ' +
        '(do not sign it again) or was refused by the wallet and nothing moved (sign again with a new nonce).',
      security: [{ bearer: [] }, { apiKey: [] }],
      body: WithdrawBody,
      response: { 200: WithdrawResponse, ...errorResponses(400, 401, 429, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const withdrawal = signedWithdrawal(caller, request.body);
    const least = ctx.config.withdrawMinBaseUnits;
    if (withdrawal.amountBaseUnits < least) throw badRequest(`amount must be at least ${formatUnits(least)} USDC (WITHDRAW_MIN_USDC)`);
    const signer = await withdrawSigner(domain, withdrawal, withdrawal.signature);
    if (signer?.toLowerCase() !== caller.address.toLowerCase()) throw new AppError('INVALID_SIGNATURE', "the signature is not the wallet owner's signature of this withdrawal");
    // Sent to a user's wallet, the collateral stays in the exchange: the engine credits that account.
    const toAccount = await withdrawalReceiver(ctx.store.db, withdrawal.to);
    /** The engine's withdraw command, journaled: the ledger transaction's hash, or its refusal thrown. */
    const record = async (): Promise<string> => {
      const outcome = await ctx.trading.engine.withdraw({ account: userAccount(caller.proxyWallet), to: withdrawal.to, amount: withdrawal.amountBaseUnits, nonce: withdrawal.nonce, ...(toAccount ? { toAccount } : {}) });
      return outcomeOrThrow(outcome).txHash;
    };
    const { operator, deployed } = ctx.chain;
    const intents = ctx.paymentIntents;
    if (!operator || !deployed || !intents) return { txHash: await record() };
    // In the wallet's turn: a split, merge or withdrawal sent just before has moved the balance this one checks.
    const onChain = () => withdrawOnChain(ctx, { operator, deployed, intents }, withdrawal, record, toAccount ?? WITHDRAWN);
    return { txHash: await relays.one(withdrawal.wallet, () => ctx.conditionalTokens.inWalletTurn(withdrawal.wallet, onChain)) };
  });
}

/** The body's fields as the signed message reads them; what the schema cannot say is checked here. */
function signedWithdrawal(caller: Caller, body: { to: string; amount: string; nonce: number | string; signature: string }): SignedWithdrawal {
  const nonce = BigInt(body.nonce);
  if (nonce >= UINT256_LIMIT) throw badRequest('nonce must be below 2^256');
  const to = getAddress(body.to.toLowerCase());
  if (to === zeroAddress) throw badRequest('to must not be the zero address');
  if (to.toLowerCase() === caller.proxyWallet.toLowerCase()) throw badRequest('to must not be the wallet itself');
  return { owner: caller.address, wallet: caller.proxyWallet, to, amountBaseUnits: positiveAmount(body.amount), nonce, signature: body.signature as Hex };
}
