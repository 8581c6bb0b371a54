import { WITHDRAW_TYPES } from '../../contract/withdraw-typed-data.ts';
import { ExchangeError } from '../errors.ts';
import { orderDomain } from '../orders/eip712.ts';
import type { Account, AccountPatch, Balances } from '../types.ts';
import { parseUnits } from '../units.ts';
import type { ClientContext } from './context.ts';

/** A withdrawal: `amount` in display units; `nonce` any uint256 this wallet has not withdrawn with before. */
export interface WithdrawalSpec {
  to: `0x${string}`;
  amount: string;
  nonce: bigint;
}

/** The caller's account and balances (EXTENSIONS.md section 2). */
export function accountSection(ctx: ClientContext) {
  const { transport } = ctx;
  return {
    async get(): Promise<Account> {
      ctx.user = await transport.call<Account>('GET', '/account', { auth: 'jwtOrApiKey' });
      return ctx.user;
    },
    async update(patch: AccountPatch): Promise<Account> {
      ctx.user = await transport.call<Account>('PATCH', '/account', { auth: 'jwtOrApiKey', body: patch });
      return ctx.user;
    },
    /** Collateral and token balances, exact decimal strings in display units. */
    balance: () => transport.call<Balances>('GET', '/account/balance', { auth: 'jwtOrApiKey' }),
    /** Test collateral, on servers run with FAUCET_ENABLED; elsewhere a 404 that says so and how to fund the account instead. */
    faucet: (amount: string) => transport.call<{ balance: string }>('POST', '/account/faucet', { auth: 'apiKey', body: { amount } }).catch((error: unknown) => {
      throw faucetOff(error);
    }),
    /**
     * Sends collateral out of the wallet to `to` (EXTENSIONS.md section 14): the client's wallet signs
     * the EIP-712 Withdraw under GET /exchange's order domain, which no API key can do for it.
     */
    async withdraw(spec: WithdrawalSpec): Promise<{ txHash: string }> {
      if (!ctx.account) throw new Error('a withdrawal is signed by the wallet: create the client with an account');
      const amount = parseUnits(spec.amount);
      if (amount === undefined) throw new Error(`amount ${spec.amount} is not a decimal with at most 6 decimals`);
      const exchange = await transport.exchange();
      const signature = await ctx.account.signTypedData({ domain: orderDomain(exchange, false), types: WITHDRAW_TYPES, primaryType: 'Withdraw', message: { to: spec.to, amount, nonce: spec.nonce } });
      return transport.call<{ txHash: string }>('POST', '/account/withdraw', { auth: 'jwtOrApiKey', body: { to: spec.to, amount: spec.amount, nonce: spec.nonce.toString(), signature } });
    },
  };
}

/**
 * The faucet's route exists only on a server run with it (EXTENSIONS.md section 2), so elsewhere
 * the server answers 'route POST /api/v1/account/faucet not found', which reads as a wrong URL or
 * an old server. Said instead: the faucet is off, and the two ways an account is funded.
 */
function faucetOff(error: unknown): unknown {
  if (!(error instanceof ExchangeError) || error.status !== 404) return error;
  const message = 'this exchange runs without the faucet (its server was started without FAUCET_ENABLED=true): fund the account instead through the operator, who credits your sign-in address (pmx credit <address> <amount>, POST /api/v1/admin/credits), or on a chain by sending collateral to your proxy wallet';
  return new ExchangeError({ status: error.status, code: error.code, message, method: error.method, path: error.path });
}
