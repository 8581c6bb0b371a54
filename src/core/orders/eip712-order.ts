import { keccak256, keccak256Hex } from '../keccak.ts';
import type { NormalizedOrder } from './create-order-rules.ts';

/**
 * A specialised EIP-712 hasher for the one Order type of EXTENSIONS.md section 1. The type hash
 * and the domain separators are computed once; an order is encoded straight into thirteen 32-byte
 * words and hashed, then the digest `keccak256(0x1901 ‖ domainSeparator ‖ structHash)` is taken.
 * It gives the same digest as viem's generic `hashTypedData` (the tests check it on random orders)
 * at a fraction of the cost, and is the order `hash` of the API, for signed and unsigned orders.
 * The hash is taken on the event loop for every order, hence the WebAssembly keccak (core/keccak.ts).
 */

type Address = `0x${string}`;
type Hex = `0x${string}`;

export const ORDER_TYPE =
  'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)';
const DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';
export const ORDER_DOMAIN_VERSION = '1';

/** The Order message exactly as it is signed; integers as bigint, side 0 buy / 1 sell. */
export interface OrderStruct {
  readonly salt: bigint;
  readonly maker: Address;
  readonly signer: Address;
  readonly taker: Address;
  readonly tokenId: bigint;
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
  readonly expiration: bigint;
  readonly nonce: bigint;
  readonly feeRateBps: bigint;
  readonly side: 0 | 1;
  readonly signatureType: 0 | 1 | 2;
}

export interface OrderDomain {
  readonly name: string;
  readonly version: string;
  readonly chainId: number;
  readonly verifyingContract: Address;
}

/** The configuration fields that fix the two order domains (EXTENSIONS.md sections 1 and 10). */
export interface OrderDomainConfig {
  readonly exchangeName: string;
  readonly chainId: number;
  readonly exchangeAddress: Address;
  readonly negRiskExchangeAddress: Address;
}

export type OrderHasher = (order: OrderStruct) => Hex;

const WORD = 32;
const ORDER_WORDS = 13;
const utf8 = new TextEncoder();
const ORDER_TYPE_HASH = keccak256(utf8.encode(ORDER_TYPE));
const DOMAIN_TYPE_HASH = keccak256(utf8.encode(DOMAIN_TYPE));
const MAX_UINT256 = 2n ** 256n - 1n;

export function orderDomains(config: OrderDomainConfig): { exchange: OrderDomain; negRisk: OrderDomain } {
  const base = { name: config.exchangeName, version: ORDER_DOMAIN_VERSION, chainId: config.chainId };
  return {
    exchange: { ...base, verifyingContract: config.exchangeAddress },
    negRisk: { ...base, verifyingContract: config.negRiskExchangeAddress },
  };
}

export function domainSeparator(domain: OrderDomain): Uint8Array {
  const words = new Uint8Array(5 * WORD);
  words.set(DOMAIN_TYPE_HASH, 0);
  words.set(keccak256(utf8.encode(domain.name)), WORD);
  words.set(keccak256(utf8.encode(domain.version)), 2 * WORD);
  writeUint(words, 3, BigInt(domain.chainId));
  writeAddress(words, 4, domain.verifyingContract);
  return keccak256(words);
}

export function createOrderHasher(domain: OrderDomain): OrderHasher {
  const separator = domainSeparator(domain);
  return (order) => {
    const words = new Uint8Array(ORDER_WORDS * WORD);
    words.set(ORDER_TYPE_HASH, 0);
    writeUint(words, 1, order.salt);
    writeAddress(words, 2, order.maker);
    writeAddress(words, 3, order.signer);
    writeAddress(words, 4, order.taker);
    writeUint(words, 5, order.tokenId);
    writeUint(words, 6, order.makerAmount);
    writeUint(words, 7, order.takerAmount);
    writeUint(words, 8, order.expiration);
    writeUint(words, 9, order.nonce);
    writeUint(words, 10, order.feeRateBps);
    words[11 * WORD + WORD - 1] = order.side;
    words[12 * WORD + WORD - 1] = order.signatureType;
    const digestInput = new Uint8Array(2 + 2 * WORD);
    digestInput[0] = 0x19;
    digestInput[1] = 0x01;
    digestInput.set(separator, 2);
    digestInput.set(keccak256(words), 2 + WORD);
    return keccak256Hex(digestInput);
  };
}

/** One hasher per domain; a neg-risk market's orders are signed for the neg-risk exchange. */
export function createMarketOrderHasher(config: OrderDomainConfig): (order: OrderStruct, negRisk: boolean) => Hex {
  const domains = orderDomains(config);
  const exchange = createOrderHasher(domains.exchange);
  const negRisk = createOrderHasher(domains.negRisk);
  return (order, isNegRisk) => (isNegRisk ? negRisk(order) : exchange(order));
}

/** The signed message of an order that passed the entry rules. */
export function orderStructOf(order: NormalizedOrder): OrderStruct {
  return {
    salt: order.salt,
    maker: order.maker,
    signer: order.signer,
    taker: order.taker,
    tokenId: BigInt(order.tokenId),
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    expiration: BigInt(order.expirationSec),
    nonce: order.nonce,
    feeRateBps: BigInt(order.feeRateBps),
    side: order.side === 'BUY' ? 0 : 1,
    signatureType: order.signatureType,
  };
}

function writeUint(words: Uint8Array, index: number, value: bigint): void {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`EIP-712 uint256 out of range: ${value}`);
  writeHex(words, index * WORD + WORD, value.toString(16));
}

function writeAddress(words: Uint8Array, index: number, address: Address): void {
  if (address.length !== 42) throw new RangeError(`EIP-712 address must be 20 bytes: ${address}`);
  writeHex(words, index * WORD + WORD, address.slice(2));
}

/** Writes hex digits right-aligned so that they end just before `end` (big-endian). */
function writeHex(bytes: Uint8Array, end: number, hex: string): void {
  let position = end - 1;
  for (let i = hex.length; i > 0; i -= 2) {
    const high = i >= 2 ? nibble(hex.charCodeAt(i - 2)) : 0;
    bytes[position--] = high * 16 + nibble(hex.charCodeAt(i - 1));
  }
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  throw new RangeError(`not a hex digit: ${String.fromCharCode(code)}`);
}
