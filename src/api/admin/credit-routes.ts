import { formatUnits } from '../../core/money.ts';
import { findOrCreateUserByAddress } from '../../store/users-repository.ts';
import type { AppContext } from '../context.ts';
import { CreditBody, CreditResponse } from '../../contract/admin.ts';
import { errorResponses } from '../../contract/common.ts';
import { positiveAmount } from '../request-checks.ts';
import type { TypedApp } from '../typed-app.ts';
import { creditThroughChain } from '../account/credit-on-chain.ts';

/**
 * POST /admin/credits (EXTENSIONS.md section 3): deposits collateral for the user of a sign-in
 * address, creating the user (and its proxy wallet) when new. The user is created first: a credit
 * that then fails leaves a user without it, and the call can be made again. With `idempotencyKey`,
 * the credit is made once per key, on the chain and in the ledger (credit-on-chain.ts): the same
 * request again is answered with the balance now and moves nothing; the key with another address
 * or amount is 409 CONFLICT.
 */
export function registerCreditRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/credits', {
    config: { auth: 'admin', engineCommand: true },
    schema: {
      tags: ['admin'],
      summary: "Deposit collateral for a user's sign-in address",
      security: [{ bearer: [] }],
      body: CreditBody,
      response: { 200: CreditResponse, ...errorResponses(400, 401, 409, 503) },
    },
  }, async (request) => {
    const amount = positiveAmount(request.body.amount);
    const user = await findOrCreateUserByAddress(ctx.store.db, request.body.address, ctx.identity.proxyWalletOf);
    const { balance } = await creditThroughChain(ctx, 'admin-credit', user, amount, request.body.idempotencyKey);
    return { address: user.address, balance: formatUnits(balance) };
  });
}
