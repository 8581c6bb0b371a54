import type { LocalAccount } from 'viem/accounts';
import { OrderBuildError } from '../errors.ts';
import type { CreateOrder, ExchangeInfo, Market } from '../types.ts';
import { orderAmounts, type OrderSide } from './amounts.ts';
import { randomSalt, signOrder, ZERO_ADDRESS } from './eip712.ts';
import { checkOrderSpec } from './spec.ts';

/** What a trader says: decimal strings for price and size, never floats. */
export interface OrderSpec {
  tokenId: string;
  side: OrderSide;
  /** Limit price of this token, e.g. "0.42". */
  price: string;
  /** Token size in display units, e.g. "10". */
  size: string;
  /** Default GTC. */
  type?: 'GTC' | 'FOK' | 'FAK';
  postOnly?: boolean;
  /** Unix seconds; 0 or absent: no expiry. */
  expiration?: number;
  /** Default: a fresh UUID v4, so a retried submission cannot place the order twice. */
  idempotencyKey?: string;
}

/** The market fields that decide how an order is built and signed. */
export type MarketRules = Pick<Market, 'tickSize' | 'negRisk' | 'orderFeeRateBps' | 'tokenId1' | 'tokenId2' | 'id'>;

export interface Signer {
  account: LocalAccount;
  /** The account's proxy wallet: the maker of signatureType 1 orders. */
  proxyWallet: `0x${string}`;
}

/**
 * A CreateOrder body with exact base-unit amounts, checked against the market's rules, signed as
 * the EIP-712 Order when a signer is given (signatureType 1: the proxy wallet is the maker), and
 * carrying an idempotency key.
 */
export async function buildOrder(spec: OrderSpec, market: MarketRules, exchange: ExchangeInfo, signer?: Signer): Promise<CreateOrder> {
  checkOrderSpec(spec);
  if (spec.tokenId !== market.tokenId1 && spec.tokenId !== market.tokenId2) {
    throw new OrderBuildError('ORDER_TOKEN_NOT_IN_MARKET', `token ${spec.tokenId} is not an outcome token of market ${market.id}`);
  }
  const orderType = spec.type ?? 'GTC';
  if (spec.postOnly && orderType !== 'GTC') throw new OrderBuildError('ORDER_POST_ONLY_NOT_GTC', 'postOnly is valid for GTC orders only');
  const expiration = spec.expiration ?? 0;
  const amounts = orderAmounts(spec.side, spec.price, spec.size, market.tickSize);
  const salt = randomSalt();
  const side = spec.side === 'BUY' ? 0 : 1;
  const body: CreateOrder = {
    salt: salt.toString(),
    taker: ZERO_ADDRESS,
    tokenId: spec.tokenId,
    makerAmount: amounts.makerAmount.toString(),
    takerAmount: amounts.takerAmount.toString(),
    expiration,
    side,
    orderType,
    priceUint: amounts.priceMicros.toString(),
    idempotencyKey: spec.idempotencyKey ?? crypto.randomUUID(),
    ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
  };
  if (!signer) return body;
  const parties = { maker: signer.proxyWallet, signer: signer.account.address, nonce: 0, signatureType: 1 as const, feeRateBps: market.orderFeeRateBps };
  const signature = await signOrder(signer.account, exchange, market.negRisk, {
    salt,
    maker: parties.maker,
    signer: parties.signer,
    taker: ZERO_ADDRESS,
    tokenId: BigInt(spec.tokenId),
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    expiration: BigInt(expiration),
    nonce: 0n,
    feeRateBps: BigInt(market.orderFeeRateBps),
    side,
    signatureType: 1,
  });
  return { ...body, ...parties, signature };
}
