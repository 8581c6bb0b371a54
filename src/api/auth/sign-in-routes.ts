import { Type } from 'typebox';
import type { Hex } from 'viem';
import { AccountSchema, toAccount } from '../account/schemas.ts';
import type { AppContext } from '../context.ts';
import { DateTime, errorResponses } from '../schemas/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { requireCaller } from './caller.ts';

const LoginBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 4096, description: 'EIP-4361 message text containing a nonce from GET /auth/nonce' }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]*$', maxLength: 1024, description: 'personal_sign signature of the message, hex' }),
});

/** Sign-In with Ethereum (EXTENSIONS.md section 2). */
export function registerSignInRoutes(api: TypedApp, ctx: AppContext): void {
  const { signIn } = ctx.identity;

  api.get('/auth/nonce', {
    config: { auth: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'A single-use sign-in nonce, valid for 10 minutes',
      response: { 200: Type.Object({ nonce: Type.String() }) },
    },
  }, async () => ({ nonce: await signIn.issueNonce() }));

  api.post('/auth/login', {
    config: { auth: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Sign in with an EIP-4361 message for this host (or SIWE_DOMAINS); the first sign-in creates the account',
      body: LoginBody,
      response: { 200: Type.Object({ token: Type.String(), expiresAt: DateTime, user: AccountSchema }), ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const session = await signIn.login(request.body.message, request.body.signature as Hex, request.host);
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), user: toAccount(session.user) };
  });

  api.post('/auth/logout', {
    config: { auth: 'jwt' },
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
