import { violation, type OrderRuleViolation } from './order-rule-codes.ts';
import { formatFixed } from '../money.ts';
import {
  formatRational,
  isStrictlyBetweenZeroAndOne,
  nearestTickPrices,
  priceInTicks,
  priceMicrosOf,
  tickDecimals,
  type RationalPrice,
  type TickSize,
} from './order-price.ts';

/**
 * The rules of SPEC.md section 4.4 (CreateOrder) and the EXTENSIONS.md section 11 readings, applied
 * to a body the JSON schema has already shape-checked (strings are strings, integers integers).
 * Pure: the market, the caller and the time are passed in. The first broken rule is answered.
 */

type Address = `0x${string}`;
type Hex = `0x${string}`;

export type OrderType = 'GTC' | 'FOK' | 'FAK';
export type SignatureType = 0 | 1 | 2;

/** CreateOrder as it arrives (SPEC.md section 4.4 plus the signed-order fields of section 11). */
export interface CreateOrderInput {
  readonly salt: string;
  readonly taker: string;
  readonly tokenId: string;
  readonly makerAmount: string;
  readonly takerAmount: string;
  readonly expiration: number;
  readonly feeRateBps?: number | undefined;
  readonly side: number;
  readonly signature?: string | undefined;
  readonly orderType: string;
  readonly postOnly?: boolean | undefined;
  readonly priceUint?: string | undefined;
  readonly maker?: string | undefined;
  readonly signer?: string | undefined;
  readonly nonce?: number | undefined;
  readonly signatureType?: number | undefined;
}

export interface OrderMarket {
  readonly id: string;
  readonly status: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  readonly isPaused: boolean;
  readonly isResolved: boolean;
  readonly tokenId1: string | null;
  readonly tokenId2: string | null;
  readonly tickSize: TickSize;
  readonly orderFeeRateBps: number;
  readonly passiveOrderFeeRateBps: number;
  readonly negRisk: boolean;
}

export interface OrderCaller {
  /** Checksummed sign-in address. */
  readonly address: Address;
  /** Checksummed proxy wallet. */
  readonly proxyWallet: Address;
}

/** An order that passed every rule, in exact units. */
export interface NormalizedOrder {
  /** The market's own spelling of the token id. */
  readonly tokenId: string;
  /** 0 for tokenId1, 1 for tokenId2. */
  readonly outcome: 0 | 1;
  readonly side: 'BUY' | 'SELL';
  /** Collateral per token in millionths, on the market's tick. */
  readonly priceMicros: number;
  /** Outcome-token base units. */
  readonly sizeBaseUnits: bigint;
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
  /** Unix seconds, or 0 for none. */
  readonly expirationSec: number;
  readonly maker: Address;
  readonly signer: Address;
  readonly taker: Address;
  readonly nonce: bigint;
  readonly feeRateBps: number;
  readonly signatureType: SignatureType;
  readonly salt: bigint;
  /** 65-byte 0x-hex, or "" for an unsigned order. */
  readonly signature: Hex | '';
}

export type CreateOrderResult = { ok: true; order: NormalizedOrder } | { ok: false; violation: OrderRuleViolation };

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';
/** SPEC.md section 8: salt, tokenId, makerAmount and takerAmount are at most 78 characters. */
export const MAX_NUMERIC_STRING_LENGTH = 78;
export const MAX_FEE_RATE_BPS = 10_000;
const MAX_UINT256 = 2n ** 256n - 1n;
/** The store keeps sizes as int8; no balance can reach beyond it, so neither may an order. */
export const MAX_ORDER_AMOUNT_BASE_UNITS = 2n ** 63n - 1n;

const ORDER_TYPES: readonly string[] = ['GTC', 'FOK', 'FAK'];
const DIGITS = /^[0-9]+$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const SIGNED_ORDER_FIELDS = ['maker', 'signer', 'nonce', 'signatureType'] as const;

/**
 * The rules read top to bottom as plain checks; the first broken one unwinds to checkCreateOrder,
 * which hands it back as data. Nothing outside this file ever sees the exception.
 */
class RuleBroken extends Error {
  constructor(readonly violation: OrderRuleViolation) {
    super(violation.message);
  }
}

const fail = (code: OrderRuleViolation['code'], message: string): never => {
  throw new RuleBroken(violation(code, message));
};

export function checkCreateOrder(input: CreateOrderInput, market: OrderMarket, caller: OrderCaller, nowSec: number): CreateOrderResult {
  try {
    return { ok: true, order: normalize(input, market, caller, nowSec) };
  } catch (error) {
    if (error instanceof RuleBroken) return { ok: false, violation: error.violation };
    throw error;
  }
}

function normalize(input: CreateOrderInput, market: OrderMarket, caller: OrderCaller, nowSec: number): NormalizedOrder {
  const fields = readFields(input);
  const signed = readSignedFields(input);
  requireTradable(market);
  const outcome = outcomeOf(fields.tokenId, market);
  if (fields.taker !== ZERO_ADDRESS) fail('ORDER_TAKER_NOT_ZERO', `taker must be the zero address ${ZERO_ADDRESS}, got ${input.taker}`);
  const priced = priceOf(fields, market, input.priceUint);
  const feeRateBps = feeRateOf(input.feeRateBps, market);
  if (fields.postOnly && fields.orderType !== 'GTC') fail('ORDER_POST_ONLY_NOT_GTC', `postOnly is valid only for GTC orders, got orderType ${fields.orderType}`);
  if (fields.expirationSec !== 0 && fields.expirationSec <= nowSec) {
    fail('ORDER_EXPIRED', `expiration ${fields.expirationSec} is not in the future (server time ${nowSec}); use 0 for an order that does not expire`);
  }
  const parties = partiesOf(signed, caller);
  return {
    tokenId: outcome === 0 ? market.tokenId1! : market.tokenId2!,
    outcome,
    side: fields.side,
    priceMicros: priced.priceMicros,
    sizeBaseUnits: priced.sizeBaseUnits,
    makerAmount: fields.makerAmount,
    takerAmount: fields.takerAmount,
    orderType: fields.orderType,
    postOnly: fields.postOnly,
    expirationSec: fields.expirationSec,
    maker: parties.maker,
    signer: parties.signer,
    taker: ZERO_ADDRESS,
    nonce: parties.nonce,
    feeRateBps,
    signatureType: parties.signatureType,
    salt: fields.salt,
    signature: signed.signature,
  };
}

interface BaseFields {
  salt: bigint;
  taker: string;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  side: 'BUY' | 'SELL';
  orderType: OrderType;
  postOnly: boolean;
  expirationSec: number;
}

/** Formats and ranges of the unsigned fields (VALIDATION_FAILED, or ORDER_AMOUNT_INVALID for amounts). */
function readFields(input: CreateOrderInput): BaseFields {
  const salt = uint256('salt', input.salt);
  const tokenId = uint256('tokenId', input.tokenId);
  const makerAmount = amount('makerAmount', input.makerAmount);
  const takerAmount = amount('takerAmount', input.takerAmount);
  const taker = address('taker', input.taker).toLowerCase();
  if (input.side !== 0 && input.side !== 1) fail('VALIDATION_FAILED', `side must be 0 (buy) or 1 (sell), got ${String(input.side)}`);
  if (!ORDER_TYPES.includes(input.orderType)) fail('VALIDATION_FAILED', `orderType must be one of GTC, FOK, FAK, got ${JSON.stringify(input.orderType)}`);
  if (!Number.isSafeInteger(input.expiration) || input.expiration < 0) {
    fail('VALIDATION_FAILED', `expiration must be Unix seconds or 0, got ${String(input.expiration)}`);
  }
  if (input.postOnly !== undefined && typeof input.postOnly !== 'boolean') fail('VALIDATION_FAILED', 'postOnly must be a boolean');
  return {
    salt,
    tokenId,
    makerAmount,
    takerAmount,
    taker,
    side: input.side === 0 ? 'BUY' : 'SELL',
    orderType: input.orderType as OrderType,
    postOnly: input.postOnly ?? false,
    expirationSec: input.expiration,
  };
}

interface SignedFields {
  signature: Hex | '';
  maker: string | undefined;
  signer: string | undefined;
  nonce: bigint | undefined;
  signatureType: SignatureType | undefined;
}

/**
 * The signed Order's own fields. An empty signature counts as none (the stored form of an unsigned
 * order). With a signature, maker, signer, nonce and signatureType are all required.
 */
function readSignedFields(input: CreateOrderInput): SignedFields {
  const maker = input.maker === undefined ? undefined : address('maker', input.maker);
  const signer = input.signer === undefined ? undefined : address('signer', input.signer);
  if (input.nonce !== undefined && (!Number.isSafeInteger(input.nonce) || input.nonce < 0)) {
    fail('VALIDATION_FAILED', `nonce must be a non-negative integer, got ${String(input.nonce)}`);
  }
  const { signatureType } = input;
  if (signatureType !== undefined && signatureType !== 0 && signatureType !== 1 && signatureType !== 2) {
    fail('VALIDATION_FAILED', `signatureType must be 0 (EOA), 1 (proxy wallet) or 2 (safe wallet), got ${String(signatureType)}`);
  }
  const signature = input.signature ?? '';
  if (signature !== '') {
    if (!SIGNATURE.test(signature)) {
      fail('INVALID_SIGNATURE', `signature must be 65 bytes as 0x-hex (132 characters), got ${signature.length} characters`);
    }
    const missing = SIGNED_ORDER_FIELDS.filter((name) => input[name] === undefined);
    if (missing.length > 0) fail('ORDER_SIGNATURE_FIELDS_MISSING', `a signed order must also send ${missing.join(', ')}`);
  }
  return {
    signature: signature as Hex | '',
    maker,
    signer,
    nonce: input.nonce === undefined ? undefined : BigInt(input.nonce),
    signatureType: signatureType as SignatureType | undefined,
  };
}

function requireTradable(market: OrderMarket): void {
  if (market.status !== 'ACTIVE') fail('MARKET_NOT_TRADABLE', `market ${market.id} is not ACTIVE (status ${market.status})`);
  if (market.isResolved) fail('MARKET_NOT_TRADABLE', `market ${market.id} is resolved`);
  if (market.isPaused) fail('MARKET_NOT_TRADABLE', `market ${market.id} is paused`);
}

function outcomeOf(tokenId: bigint, market: OrderMarket): 0 | 1 {
  if (market.tokenId1 !== null && BigInt(market.tokenId1) === tokenId) return 0;
  if (market.tokenId2 !== null && BigInt(market.tokenId2) === tokenId) return 1;
  return fail('ORDER_TOKEN_NOT_IN_MARKET', `tokenId ${tokenId} is not one of market ${market.id}'s tokens (tokenId1 ${market.tokenId1}, tokenId2 ${market.tokenId2})`);
}

/**
 * Price and size: for a BUY the maker gives collateral for tokens, for a SELL tokens for
 * collateral; either way the price is collateral / tokens and must sit on the tick, strictly
 * inside (0, 1), with a token size that is a multiple of 10^d base units.
 */
function priceOf(fields: BaseFields, market: OrderMarket, priceUint: string | undefined): { priceMicros: number; sizeBaseUnits: bigint } {
  const buy = fields.side === 'BUY';
  const price: RationalPrice = buy
    ? { numerator: fields.makerAmount, denominator: fields.takerAmount }
    : { numerator: fields.takerAmount, denominator: fields.makerAmount };
  const shown = formatRational(price);
  const ratio = buy ? 'makerAmount / takerAmount' : 'takerAmount / makerAmount';
  if (!isStrictlyBetweenZeroAndOne(price)) {
    fail('ORDER_PRICE_OUT_OF_RANGE', `price ${shown} (${ratio} for a ${fields.side}) must be strictly between 0 and 1`);
  }
  const decimals = tickDecimals(market.tickSize);
  if (priceInTicks(price, decimals) === undefined) {
    const nearest = nearestTickPrices(price, decimals);
    const hint = nearest.length === 2 ? `nearest valid prices are ${nearest[0]} and ${nearest[1]}` : `nearest valid price is ${nearest[0]}`;
    fail('ORDER_PRICE_NOT_ON_TICK', `price ${shown} (${ratio}) is not a multiple of the market tick ${market.tickSize}; ${hint}`);
  }
  const sizeBaseUnits = price.denominator;
  const sizeStep = 10n ** BigInt(decimals);
  if (sizeBaseUnits % sizeStep !== 0n) {
    const tokenField = buy ? 'takerAmount' : 'makerAmount';
    fail('ORDER_SIZE_NOT_ON_TICK', `${tokenField} ${sizeBaseUnits} (token base units) is not a multiple of ${sizeStep}, the size step of tick ${market.tickSize}; nearest valid sizes are ${nearestSizes(sizeBaseUnits, sizeStep)}`);
  }
  const priceMicros = priceMicrosOf(price);
  if (priceUint !== undefined) {
    if (!DIGITS.test(priceUint) || priceUint.length > MAX_NUMERIC_STRING_LENGTH) {
      fail('VALIDATION_FAILED', `priceUint must be an integer string of at most ${MAX_NUMERIC_STRING_LENGTH} digits, got ${JSON.stringify(priceUint)}`);
    }
    if (BigInt(priceUint) !== priceMicros) {
      fail('ORDER_PRICE_UINT_MISMATCH', `priceUint ${priceUint} does not match the order's price ${shown}, which is ${priceMicros} in millionths`);
    }
  }
  return { priceMicros: Number(priceMicros), sizeBaseUnits };
}

function nearestSizes(size: bigint, step: bigint): string {
  const below = (size / step) * step;
  return below === 0n ? `${step}` : `${below} and ${below + step}`;
}

/** Client-signed orders use the market's orderFeeRateBps; an unsigned order takes it by default. */
function feeRateOf(feeRateBps: number | undefined, market: OrderMarket): number {
  if (feeRateBps === undefined) return market.orderFeeRateBps;
  if (!Number.isSafeInteger(feeRateBps) || feeRateBps < 0 || feeRateBps > MAX_FEE_RATE_BPS) {
    fail('VALIDATION_FAILED', `feeRateBps must be an integer from 0 to ${MAX_FEE_RATE_BPS}, got ${String(feeRateBps)}`);
  }
  if (feeRateBps !== market.orderFeeRateBps) {
    fail('ORDER_FEE_RATE_MISMATCH', `feeRateBps ${feeRateBps} does not match the market's orderFeeRateBps ${market.orderFeeRateBps} (${formatFixed(BigInt(market.orderFeeRateBps), 2)}%)`);
  }
  return feeRateBps;
}

/**
 * Who signs and whose funds move. The signer is always the caller's sign-in address; the maker is
 * the signer itself for an EOA order (type 0) and the caller's proxy wallet otherwise. Fields left
 * out default as for an unsigned order; fields sent are held to the same rules, signed or not.
 */
function partiesOf(signed: SignedFields, caller: OrderCaller): { maker: Address; signer: Address; nonce: bigint; signatureType: SignatureType } {
  const signatureType = signed.signatureType ?? 1;
  if (signed.signer !== undefined && !sameAddress(signed.signer, caller.address)) {
    fail('INVALID_SIGNATURE', `signer ${signed.signer} is not your sign-in address ${caller.address}`);
  }
  const maker = signatureType === 0 ? caller.address : caller.proxyWallet;
  if (signed.maker !== undefined && !sameAddress(signed.maker, maker)) {
    const expected = signatureType === 0 ? `the signer ${caller.address} for signatureType 0 (EOA)` : `your proxy wallet ${caller.proxyWallet} for signatureType ${signatureType}`;
    fail('INVALID_SIGNATURE', `maker ${signed.maker} must be ${expected}`);
  }
  return { maker, signer: caller.address, nonce: signed.nonce ?? 0n, signatureType };
}

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** A token id that cannot name any token (not decimal digits, too long): VALIDATION_FAILED before any market is looked up. */
export function tokenIdViolation(tokenId: string): OrderRuleViolation | undefined {
  if (tokenId.length <= MAX_NUMERIC_STRING_LENGTH && DIGITS.test(tokenId)) return undefined;
  return { code: 'VALIDATION_FAILED', message: `tokenId must be a numeric string of at most ${MAX_NUMERIC_STRING_LENGTH} decimal digits, got ${JSON.stringify(tokenId.slice(0, 100))}` };
}

function numericString(field: string, value: string): void {
  if (value.length > MAX_NUMERIC_STRING_LENGTH) fail('VALIDATION_FAILED', `${field} is ${value.length} characters long; the limit is ${MAX_NUMERIC_STRING_LENGTH}`);
  if (!DIGITS.test(value)) fail('VALIDATION_FAILED', `${field} must be a numeric string of decimal digits, got ${JSON.stringify(value)}`);
}

function uint256(field: string, value: string): bigint {
  numericString(field, value);
  const parsed = BigInt(value);
  if (parsed > MAX_UINT256) fail('VALIDATION_FAILED', `${field} ${value} does not fit in a uint256`);
  return parsed;
}

function amount(field: string, value: string): bigint {
  numericString(field, value);
  const parsed = BigInt(value);
  if (parsed === 0n) fail('ORDER_AMOUNT_INVALID', `${field} must be a positive integer of base units, got ${value}`);
  if (parsed > MAX_ORDER_AMOUNT_BASE_UNITS) {
    fail('ORDER_AMOUNT_INVALID', `${field} ${parsed} exceeds the largest order amount, ${MAX_ORDER_AMOUNT_BASE_UNITS} base units`);
  }
  return parsed;
}

function address(field: string, value: string): Address {
  if (!ADDRESS.test(value)) fail('VALIDATION_FAILED', `${field} must be a 20-byte address (0x and 40 hex digits), got ${JSON.stringify(value)}`);
  return value as Address;
}
