import { createSiweMessage } from 'viem/siwe';
import type { LocalAccount } from 'viem/accounts';
import type { ApiKeyCredentials } from '../hmac.ts';
import type { ApiKeySummary, SignInSession } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Sign-in with Ethereum and API keys (EXTENSIONS.md section 2). */
export function authSection(ctx: ClientContext) {
  const { transport } = ctx;
  return {
    nonce: () => transport.call<{ nonce: string }>('GET', '/auth/nonce'),

    /** Signs an EIP-4361 message with the wallet and keeps the session token for JWT routes. */
    async signIn(account: LocalAccount | undefined = ctx.account): Promise<SignInSession> {
      if (!account) throw new Error('signIn needs a viem account: createClient({ account }) or signIn(account)');
      const exchange = await transport.refreshExchange();
      const { nonce } = await transport.call<{ nonce: string }>('GET', '/auth/nonce');
      const url = new URL(transport.baseUrl);
      const message = createSiweMessage({
        domain: url.host,
        uri: transport.baseUrl,
        address: account.address,
        chainId: exchange.chainId,
        nonce,
        version: '1',
        statement: 'Sign in to the exchange',
        issuedAt: new Date(transport.clock.nowMs()),
      });
      const signature = await account.signMessage({ message });
      const session = await transport.call<SignInSession>('POST', '/auth/login', { body: { message, signature } });
      ctx.account = account;
      ctx.user = session.user;
      transport.credentials.token = session.token;
      return session;
    },

    /** Creates an API key (needs a session) and uses it for every later signed call. */
    async createApiKey(): Promise<ApiKeyCredentials> {
      const creds = await transport.call<ApiKeyCredentials>('POST', '/auth/api-keys', { auth: 'jwt' });
      transport.credentials.apiKey = creds;
      return creds;
    },

    /** Ends the session (POST /auth/logout): its token is refused afterwards on every node. */
    async logout(): Promise<void> {
      await transport.call<void>('POST', '/auth/logout', { auth: 'jwt' });
      transport.credentials.token = undefined;
    },

    listApiKeys: () => transport.call<ApiKeySummary[]>('GET', '/auth/api-keys', { auth: 'jwtOrApiKey' }),

    revokeApiKey: (apiKey: string) => transport.call<void>('DELETE', `/auth/api-keys/${encodeURIComponent(apiKey)}`, { auth: 'jwtOrApiKey', idempotent: true }),
  };
}
