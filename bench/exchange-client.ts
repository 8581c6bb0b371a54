/**
 * What the HTTP benchmarks do as a client of a running exchange (a ProcessServer): sign in a
 * trader with an API key and credit, list a market, sign requests with HMAC.
 */
import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { deriveProxyWallet } from '../src/core/proxy-wallet.ts';
import { hmacSignature, signedMessage } from '../src/identity/hmac.ts';
import type { ProcessServer } from '../test/helpers/process-server.ts';

export type Hex = `0x${string}`;

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Server settings for a benchmark of throughput: one API key places far more than a trader may (README "Security"). */
export const UNLIMITED_RATES = { RATE_LIMIT_ORDERS: 'off', RATE_LIMIT_REQUESTS: 'off', RATE_LIMIT_PUBLIC: 'off' };

/** The body of an unsigned GTC BUY (POST /orders): the server takes the caller's wallet as maker. */
export function unsignedBuyJson(order: { salt: bigint; tokenId: bigint | string; makerAmount: bigint; takerAmount: bigint }): Record<string, unknown> {
  return {
    salt: order.salt.toString(), taker: ZERO_ADDRESS, tokenId: order.tokenId.toString(), makerAmount: order.makerAmount.toString(),
    takerAmount: order.takerAmount.toString(), expiration: 0, side: 0, orderType: 'GTC',
  };
}

export interface BenchTrader {
  privateKey: Hex;
  account: PrivateKeyAccount;
  proxyWallet: Hex;
  apiKey: string;
  secret: string;
  passphrase: string;
}

export async function json(url: string, init: RequestInit = {}): Promise<any> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** `POST /api/v1/orders` with this body, signed for the trader: the exchange's answer (a refusal throws). */
export function postOrder(server: ProcessServer, trader: BenchTrader, body: string): Promise<any> {
  return json(server.api('/orders'), { method: 'POST', headers: hmacHeaders(trader, 'POST', '/api/v1/orders', body), body });
}

export async function setUpTrader(server: ProcessServer): Promise<BenchTrader> {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  const exchange = await json(server.api('/exchange'));
  const { nonce } = await json(server.api('/auth/nonce'));
  const message = createSiweMessage({ address: account.address, chainId: exchange.chainId, domain: new URL(server.url).host, nonce, uri: server.url, version: '1', issuedAt: new Date(exchange.serverTime) });
  const login = await json(server.api('/auth/login'), { method: 'POST', body: JSON.stringify({ message, signature: await account.signMessage({ message }) }) });
  const key = await json(server.api('/auth/api-keys'), { method: 'POST', headers: { authorization: `Bearer ${login.token}` } });
  await json(server.api('/admin/credits'), { method: 'POST', headers: server.adminHeaders, body: JSON.stringify({ address: account.address, amount: '1000000000' }) });
  return { privateKey, account, proxyWallet: deriveProxyWallet(account.address), ...key };
}

export async function setUpMarket(server: ProcessServer): Promise<{ id: string; tokenId1: string; tokenId2: string }> {
  const event = await json(server.api('/admin/events'), { method: 'POST', headers: server.adminHeaders, body: JSON.stringify({ name: `Bench ${randomBytes(4).toString('hex')}`, description: 'bench', markets: [{ name: 'Bench market' }] }) });
  const published = await json(server.api(`/admin/events/${event.id}/publish`), { method: 'POST', headers: server.adminHeaders });
  return published.markets[0];
}

let clockSkewMs = 0;
/**
 * A request's HMAC headers. Its timestamp is now plus a skew that steps each call (requests of one
 * millisecond differ), or `timestampMs` when the caller must never repeat one (bodiless reads, whose
 * signature is only timestamp and path: a repeat is refused as a replay).
 */
export function hmacHeaders(trader: BenchTrader, method: string, path: string, body: string, timestampMs?: number): Record<string, string> {
  const timestamp = String(timestampMs ?? Date.now() + clockSkewMs);
  clockSkewMs = (clockSkewMs + 1) % 1000;
  const signature = hmacSignature(trader.secret, signedMessage(timestamp, method, path, body));
  return { 'content-type': 'application/json', 'svc-api-key': trader.apiKey, 'svc-signature': signature, 'svc-timestamp': timestamp, 'svc-passphrase': trader.passphrase };
}

