import { Type } from 'typebox';
import { updateUserProfile } from '../../store/account-repository.ts';
import { findUserById } from '../../store/users-repository.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import { conflict, unauthorized } from '../../contract/errors.ts';
import { errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { AccountSchema, toAccount } from './schemas.ts';

/**
 * `type: [string, null]` rather than anyOf: with the app's type coercion, an anyOf would coerce
 * null into "" (or "" into null) while trying its branches.
 */
const nullableString = (options: { pattern?: string; format?: string; maxLength?: number; description: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

const AccountPatch = Type.Object({
  displayName: Type.Optional(nullableString({ pattern: '^[A-Za-z0-9_-]{3,30}$', description: '3 to 30 of A-Z a-z 0-9 _ -, unique ignoring case; null clears it' })),
  avatarUrl: Type.Optional(nullableString({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'an http(s) URL; null clears it' })),
  anonymous: Type.Optional(Type.Boolean()),
});

/** The caller's own account (EXTENSIONS.md section 2). The balance route belongs to the ledger. */
export function registerAccountRoutes(api: TypedApp, ctx: AppContext): void {
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];

  api.get('/account', {
    config: { auth: 'jwtOrApiKey' },
    schema: { tags: ['account'], summary: 'The signed-in account', security, response: { 200: AccountSchema, ...errorResponses(401) } },
  }, async (request) => {
    const user = await findUserById(ctx.store.db, requireCaller(request).userId);
    if (!user) throw unauthorized('the account of these credentials no longer exists');
    return toAccount(user);
  });

  api.patch('/account', {
    config: { auth: 'jwtOrApiKey' },
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
