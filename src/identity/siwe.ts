import { isAddressEqual, recoverMessageAddress, type Address, type Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage, type SiweMessage } from 'viem/siwe';
import { badRequest, unauthorized } from '../contract/errors.ts';

/**
 * Checks an EIP-4361 sign-in message and its signature. What is checked (README.md):
 * - the text is a complete EIP-4361 message (domain, address, URI, version 1, chain id, nonce,
 *   issued-at, well-formed dates), else 400;
 * - the chain id is this exchange's, else 401;
 * - the `domain` is the host of one of the exchange's configured public origins (PUBLIC_URL, or
 *   unset the origins it listens on) or one of SIWE_DOMAINS, and the `uri` names such an origin,
 *   else 401: a message written for another website (which could relay our nonce to its own
 *   users) does not sign anyone in here. The request's own Host (or X-Forwarded-Host) is never
 *   consulted: the sender writes it;
 * - `issuedAt` is not in the future by more than the HMAC window, nor older than a nonce lives,
 *   else 401;
 * - `notBefore` and `expirationTime`, when present, hold at the server clock, else 401;
 * - the signature (EIP-191 personal_sign by an EOA) recovers to the message's address, else 401.
 * The nonce's freshness is checked against the store by the caller; the single-use,
 * server-issued nonce is what stops a signed message from being replayed.
 */
export function parseSignInMessage(text: string): SiweMessage {
  const parsed = parseSiweMessage(text);
  const { address, chainId, domain, nonce, uri, version, issuedAt, expirationTime, notBefore } = parsed;
  if (address === undefined || chainId === undefined || domain === undefined || domain === '' || nonce === undefined || uri === undefined || issuedAt === undefined) {
    throw badRequest('message is not an EIP-4361 sign-in message');
  }
  if (version !== '1') throw badRequest('message version must be 1');
  for (const date of [issuedAt, expirationTime, notBefore]) {
    if (date !== undefined && Number.isNaN(date.getTime())) throw badRequest('message holds a malformed date-time');
  }
  return { ...parsed, address, chainId, domain, nonce, uri, version };
}

export interface SignInRules {
  chainId: number;
  nowMs: number;
  /** The exchange's public origins (`scheme://host[:port]`, lower case): PUBLIC_URL, or the ones it listens on. */
  origins: readonly string[];
  /** SIWE_DOMAINS: more lower-case authorities (`host` or `host:port`), over http or https. */
  extraHosts: readonly string[];
  /** How far in the future `issuedAt` may be (the HMAC window: clocks differ). */
  futureSkewMs: number;
  /** How old `issuedAt` may be (a nonce's lifetime). */
  maxAgeMs: number;
}

export async function verifySignInMessage(message: SiweMessage, text: string, signature: Hex, rules: SignInRules): Promise<Address> {
  if (message.chainId !== rules.chainId) throw unauthorized(`message is for chain ${message.chainId}, this exchange is on chain ${rules.chainId}`);
  const hosts = [...rules.origins.map((origin) => new URL(origin).host), ...rules.extraHosts];
  if (!hosts.includes(message.domain.toLowerCase())) throw unauthorized(`message is for ${message.domain}, not for this exchange`);
  if (!isOriginOf(message.uri, rules)) throw unauthorized(`message uri ${message.uri} is not an origin of this exchange`);
  const issuedAtMs = message.issuedAt!.getTime();
  if (issuedAtMs > rules.nowMs + rules.futureSkewMs) throw unauthorized('message issuedAt is in the future');
  if (issuedAtMs < rules.nowMs - rules.maxAgeMs) throw unauthorized('message issuedAt is too old: ask for a new nonce');
  if (!validateSiweMessage({ message, time: new Date(rules.nowMs) })) throw unauthorized('message is expired or not yet valid');
  let signer: Address;
  try {
    signer = await recoverMessageAddress({ message: text, signature });
  } catch {
    throw unauthorized('signature is malformed');
  }
  if (!isAddressEqual(signer, message.address)) throw unauthorized("signature does not recover to the message's address");
  return message.address;
}

/** Whether an http(s) URI lies under one of the public origins, or on a host of SIWE_DOMAINS. */
function isOriginOf(uri: string, rules: SignInRules): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  return rules.origins.includes(url.origin.toLowerCase()) || rules.extraHosts.includes(url.host.toLowerCase());
}
