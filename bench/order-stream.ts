/**
 * The order flow the HTTP benchmarks send (http-orders, reads-under-load): BUYs of both tokens of
 * one market from two traders, about one in ten crossing the other side, so the engine matches
 * (MINT) as well as rests.
 */
import { randomBytes } from 'node:crypto';
import type { OrderStruct } from '../src/core/orders/eip712-order.ts';
import { hmacHeaders, unsignedBuyJson, ZERO_ADDRESS, type BenchTrader, type Hex } from './exchange-client.ts';

/** One request of an autocannon stream. */
export interface BenchRequest { path: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }

/** The i-th order of the stream: BUYs of both tokens, one in ten crossing the other side. */
export function orderStruct(i: number, trader: BenchTrader, market: { tokenId1: string; tokenId2: string }): OrderStruct {
  const crossing = i % 10 === 9;
  const onToken1 = i % 2 === 0;
  const priceCents = crossing ? 60 : 1 + (i % 45);
  const size = 10_000_000n;
  return {
    salt: BigInt(`0x${randomBytes(12).toString('hex')}`),
    maker: trader.proxyWallet,
    signer: trader.account.address,
    taker: ZERO_ADDRESS,
    tokenId: BigInt(onToken1 ? market.tokenId1 : market.tokenId2),
    makerAmount: (BigInt(priceCents) * size) / 100n,
    takerAmount: size,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 0n,
    side: 0,
    signatureType: 1,
  };
}

/** CreateOrder's body of an order: unsigned, or with its signature and the signed fields. */
export function createOrderJson(order: OrderStruct, signature?: Hex): Record<string, unknown> {
  const body = unsignedBuyJson(order);
  if (signature) Object.assign(body, { signature, maker: order.maker, signer: order.signer, nonce: 0, signatureType: 1, feeRateBps: 0 });
  return body;
}

/** `POST /api/v1/orders` with this body, signed for the trader (a fresh HMAC each time). */
export function placeRequest(trader: BenchTrader, body: string): BenchRequest {
  return { method: 'POST', path: '/api/v1/orders', body, headers: hmacHeaders(trader, 'POST', '/api/v1/orders', body) };
}

/** Unsigned single orders of the two traders, in turn: autocannon's `setupRequest` of a stream. */
export function unsignedOrderStream(traders: readonly BenchTrader[], market: { tokenId1: string; tokenId2: string }): () => BenchRequest {
  let i = 0;
  return () => {
    const n = i++;
    const trader = traders[n % traders.length]!;
    return placeRequest(trader, JSON.stringify(createOrderJson(orderStruct(n, trader, market))));
  };
}
