import { updateUserProfile } from '../../store/account-repository.ts';
import { findUserById } from '../../store/users-repository.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { conflict, unauthorized } from '../../contract/errors.ts';
import { AccountPatch, AccountSchema } from '../../contract/account.ts';
import { errorResponses } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { toAccount } from './to-account.ts';

/** The caller's own account (EXTENSIONS.md section 2). The balance route belongs to the ledger. */
export function registerAccountRoutes(api: TypedApp, ctx: AppContext): void {
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];

  api.get('/account', {
    config: { auth: 'jwtOrApiKey', journalReads: 'none' },
    schema: { tags: ['account'], summary: 'The signed-in account', security, response: { 200: AccountSchema, ...errorResponses(401) } },
  }, async (request) => {
    const user = await findUserById(ctx.store.db, requireCaller(request).userId);
    if (!user) throw unauthorized('the account of these credentials no longer exists');
    return toAccount(user);
  });

  api.patch('/account', {
    config: { auth: 'jwtOrApiKey', journalReads: 'none' },
    schema: {
      tags: ['account'],
      summary: 'Change the display name, avatar or anonymity; fields not sent stay unchanged',
      security,
      body: AccountPatch,
      response: { 200: AccountSchema, ...errorResponses(400, 401, 409) },
    },
  }, async (request) => {
    const result = await updateUserProfile(ctx.store.db, requireCaller(request).userId, request.body, new Date(ctx.clock.nowMs()));
    if (!result.ok) {
      if (result.reason === 'display-name-taken') throw conflict('this display name is taken');
      throw unauthorized('the account of these credentials no longer exists');
    }
    return toAccount(result.user);
  });
}
