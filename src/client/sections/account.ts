import type { Account, AccountPatch, Balances } from '../types.ts';
import type { ClientContext } from './context.ts';

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
    /** Test collateral, on servers run with FAUCET_ENABLED. */
    faucet: (amount: string) => transport.call<{ balance: string }>('POST', '/account/faucet', { auth: 'apiKey', body: { amount } }),
  };
}
