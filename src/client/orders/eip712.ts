import type { LocalAccount } from 'viem/accounts';
import type { ExchangeInfo } from '../types.ts';

/** The Order type of EXTENSIONS.md section 1 (the CTF-exchange layout), as viem signs it. */
export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as const;

export interface OrderMessage {
  salt: bigint;
  maker: `0x${string}`;
  signer: `0x${string}`;
  taker: `0x${string}`;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  side: 0 | 1;
  signatureType: 0 | 1 | 2;
}

/** The order domain of GET /exchange; neg-risk markets sign for the neg-risk exchange. */
export function orderDomain(exchange: ExchangeInfo, negRisk: boolean) {
  return {
    name: exchange.eip712.name,
    version: exchange.eip712.version,
    chainId: exchange.chainId,
    verifyingContract: negRisk ? exchange.negRiskVerifyingContract : exchange.eip712.verifyingContract,
  };
}

export function signOrder(account: LocalAccount, exchange: ExchangeInfo, negRisk: boolean, message: OrderMessage): Promise<`0x${string}`> {
  return account.signTypedData({ domain: orderDomain(exchange, negRisk), types: ORDER_TYPES, primaryType: 'Order', message });
}

/** A random uint128 salt, from the platform's cryptographic generator (Node 20 and browsers). */
export function randomSalt(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}
