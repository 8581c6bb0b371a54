/**
 * Signing in and signing requests the way an outside client does: a viem account signs a real
 * EIP-4361 message, and API-key HMACs are computed with node:crypto from SPEC.md section 5 alone.
 */
import { createHmac } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { request, type JsonResponse } from './http.ts';
import type { ApiServer } from './server.ts';

export interface Account {
  userId: string;
  address: string;
  proxyWallet: string;
  displayName: string | null;
  avatarUrl: string | null;
  anonymous: boolean;
}

export interface SignedInUser {
  token: string;
  expiresAt: string;
  user: Account;
  account: PrivateKeyAccount;
}

export interface ApiCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** `Authorization: Bearer` headers for a session token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What GET /exchange reports that signing needs: chain id, header prefix and server time. */
export async function exchangeInfo(server: ApiServer): Promise<{ chainId: number; headerPrefix: string; serverTime: number }> {
  const response = await fetch(server.api('/exchange'));
  // Without the server's time there is no timestamp to sign with (freshTimestamp would step back from NaN for ever).
  if (!response.ok) throw new Error(`GET /exchange answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { chainId: number; headerPrefix: string; serverTime: number };
}

/** An EIP-4361 message for the server, with a fresh nonce unless one is given. */
export async function signInMessage(server: ApiServer, account: PrivateKeyAccount, fields: { nonce?: string; chainId?: number; issuedAt?: Date; expirationTime?: Date; notBefore?: Date; domain?: string; uri?: string } = {}): Promise<string> {
  const info = await exchangeInfo(server);
  const nonce = fields.nonce ?? ((await (await fetch(server.api('/auth/nonce'))).json()) as { nonce: string }).nonce;
  const url = new URL(server.url);
  return createSiweMessage({
    domain: fields.domain ?? url.host,
    uri: fields.uri ?? server.url,
    address: account.address,
    chainId: fields.chainId ?? info.chainId,
    nonce,
    version: '1',
    statement: 'Sign in to the exchange',
    issuedAt: fields.issuedAt ?? new Date(info.serverTime),
    ...(fields.expirationTime ? { expirationTime: fields.expirationTime } : {}),
    ...(fields.notBefore ? { notBefore: fields.notBefore } : {}),
  });
}

export function login(server: ApiServer, message: string, signature: string): Promise<JsonResponse> {
  return request('POST', server.api('/auth/login'), { body: { message, signature } });
}

/** Signs in with a new (or the given) wallet and returns the session, the Account and the wallet. */
export async function signIn(server: ApiServer, account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey())): Promise<SignedInUser> {
  const message = await signInMessage(server, account);
  const response = await login(server, message, await account.signMessage({ message }));
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { token: response.body.token, expiresAt: response.body.expiresAt, user: response.body.user, account };
}

/** POST /auth/api-keys with a session token. */
export async function createApiKey(server: ApiServer, token: string): Promise<ApiCredentials> {
  const response = await request('POST', server.api('/auth/api-keys'), { headers: bearer(token) });
  if (response.status !== 201) throw new Error(`API key creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as ApiCredentials;
}

/**
 * The four HMAC headers for a request: HMAC-SHA256 keyed with the secret's UTF-8 bytes over
 * timestamp + METHOD + path + body, lowercase hex. `path` is exactly what goes on the wire
 * (with /api/v1; a query string is left out of the signature).
 */
export function hmacHeaders(creds: ApiCredentials, method: string, path: string, body = '', options: { timestampMs: number; prefix?: string }): Record<string, string> {
  const prefix = options.prefix ?? 'svc';
  const timestamp = String(options.timestampMs);
  const signedPath = path.split('?')[0]!;
  const signature = createHmac('sha256', Buffer.from(creds.secret, 'utf8')).update(`${timestamp}${method.toUpperCase()}${signedPath}${body}`).digest('hex');
  return {
    [`${prefix}-api-key`]: creds.apiKey,
    [`${prefix}-signature`]: signature,
    [`${prefix}-timestamp`]: timestamp,
    [`${prefix}-passphrase`]: creds.passphrase,
  };
}

const usedTimestamps = new WeakMap<ApiServer, Set<number>>();

/**
 * A timestamp near the server's (manual) clock that this helper has not used before on that
 * server: the manual clock stands still, and two identical requests with one timestamp would
 * carry one signature, which the server refuses as a replay. Steps back a millisecond at a time.
 */
function freshTimestamp(server: ApiServer, serverTime: number): number {
  let used = usedTimestamps.get(server);
  if (!used) {
    used = new Set();
    usedTimestamps.set(server, used);
  }
  let timestamp = serverTime;
  while (used.has(timestamp)) timestamp--;
  used.add(timestamp);
  return timestamp;
}

/**
 * A signed request to `server.api(path)` (path under /api/v1, as server.api takes it), timestamped
 * near the server's clock and using its header prefix. A body is sent as JSON text, signed as sent.
 */
export async function signedRequest<T = any>(server: ApiServer, creds: ApiCredentials, method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
  const info = await exchangeInfo(server);
  const text = body === undefined ? '' : JSON.stringify(body);
  const timestampMs = freshTimestamp(server, info.serverTime);
  const headers = hmacHeaders(creds, method, `/api/v1${path}`, text, { timestampMs, prefix: info.headerPrefix });
  if (body !== undefined) headers['content-type'] = 'application/json';
  return request<T>(method, server.api(path), { headers, ...(body !== undefined ? { rawBody: text } : {}) });
}
