import { isAddressEqual, recoverMessageAddress, type Address, type Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage, type SiweMessage } from 'viem/siwe';
import { badRequest, unauthorized } from '../api/errors.ts';

/**
 * Checks an EIP-4361 sign-in message and its signature. What is checked (README.md):
 * - the text is a complete EIP-4361 message (domain, address, URI, version 1, chain id, nonce,
 *   issued-at, well-formed dates), else 400;
 * - the chain id is this exchange's, else 401;
 * - `notBefore` and `expirationTime`, when present, hold at the server clock, else 401;
 * - the signature (EIP-191 personal_sign by an EOA) recovers to the message's address, else 401.
 * The nonce's freshness is checked against the store by the caller. The domain is not bound to a
 * host name: behind proxies the server cannot know the name clients see, and wallets, not
 * servers, are what protects users against a phishing domain. The single-use, server-issued
 * nonce is what stops a signed message from being replayed.
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

export async function verifySignInMessage(message: SiweMessage, text: string, signature: Hex, rules: { chainId: number; nowMs: number }): Promise<Address> {
  if (message.chainId !== rules.chainId) throw unauthorized(`message is for chain ${message.chainId}, this exchange is on chain ${rules.chainId}`);
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
