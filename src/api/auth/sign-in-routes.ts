import { Type } from 'typebox';
import type { Hex } from 'viem';
import { LoginBody, NonceSchema, SignInSessionSchema } from '../../contract/auth.ts';
import { errorResponses } from '../../contract/common.ts';
import { toAccount } from '../account/to-account.ts';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { requireCaller } from './caller.ts';

/**
 * Sign-In with Ethereum (EXTENSIONS.md section 2). Identity reads no engine data, so its routes
 * (and the API keys' and the account's) never wait for the tables to catch up with the journal
 * (src/api/journal-reads.ts): signing in works while they do.
 */
export function registerSignInRoutes(api: TypedApp, ctx: AppContext): void {
  const { signIn } = ctx.identity;

  api.get('/auth/nonce', {
    config: { auth: 'public', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'A single-use sign-in nonce, valid for 10 minutes',
      response: { 200: NonceSchema },
    },
  }, async () => ({ nonce: await signIn.issueNonce() }));

  api.post('/auth/login', {
    config: { auth: 'public', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with an EIP-4361 message naming one of the exchange\'s public origins (PUBLIC_URL, SIWE_DOMAINS; unset, the origins it listens on); the first sign-in creates the account',
      body: LoginBody,
      response: { 200: SignInSessionSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const session = await signIn.login(request.body.message, request.body.signature as Hex);
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), user: toAccount(session.user) };
  });

  api.post('/auth/logout', {
    config: { auth: 'jwt', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'End this session: its token is refused afterwards on every node, and its /user sockets are disconnected',
      security: [{ bearer: [] }],
      response: { 204: Type.Null({ description: 'signed out' }), ...errorResponses(401) },
    },
  }, async (request, reply) => {
    const { sessionId, expiresAtMs } = requireCaller(request);
    await ctx.identity.endedSessions.end(sessionId!, expiresAtMs!);
    return reply.code(204).send(null);
  });
}
