import { isAddressEqual, recoverMessageAddress, type Address, type Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage, type SiweMessage } from 'viem/siwe';
import { badRequest, unauthorized } from '../contract/errors.ts';

/**
 * Checks an EIP-4361 sign-in message and its signature. What is checked (README.md):
 * - the text is a complete EIP-4361 message (domain, address, URI, version 1, chain id, nonce,
 *   issued-at, well-formed dates), else 400;
 * - the chain id is this exchange's, else 401;
 * - the `domain` is one of the hosts the exchange answers to (the request's Host, SIWE_DOMAINS)
 *   and the `uri` an origin of one of them, else 401: a message written for another website
 *   (which could relay our nonce to its own users) does not sign anyone in here;
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
  /** Lower-case authorities (`host` or `host:port`) a message may name: the request's Host and SIWE_DOMAINS. */
  hosts: readonly string[];
}

export async function verifySignInMessage(message: SiweMessage, text: string, signature: Hex, rules: SignInRules): Promise<Address> {
  if (message.chainId !== rules.chainId) throw unauthorized(`message is for chain ${message.chainId}, this exchange is on chain ${rules.chainId}`);
  if (!rules.hosts.includes(message.domain.toLowerCase())) throw unauthorized(`message is for ${message.domain}, not for this exchange`);
  if (!rules.hosts.includes(uriHost(message.uri))) throw unauthorized(`message uri ${message.uri} is not an origin of this exchange`);
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

/** The lower-case authority of an http(s) URI, or '' (matching no host) for anything else. */
function uriHost(uri: string): string {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}
