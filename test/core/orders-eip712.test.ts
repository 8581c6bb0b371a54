import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hashTypedData, type Address } from 'viem';
import { parseConfig } from '../../src/config.ts';
import { checkCreateOrder } from '../../src/core/orders/create-order-rules.ts';
import {
  createMarketOrderHasher,
  createOrderHasher,
  orderDomains,
  orderStructOf,
  type OrderDomain,
  type OrderStruct,
} from '../../src/core/orders/eip712-order.ts';
import { ORDER_TYPES } from '../../src/client/orders/eip712.ts';
import { NOW_SEC, buyInput, caller, market } from '../helpers/order-fixtures.ts';


const viemHash = (domain: OrderDomain, order: OrderStruct) => hashTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order });

const uint256 = fc.bigInt(0n, 2n ** 256n - 1n);
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Address);
/** The same order with upper-case hex digits in its addresses: the hash must not depend on case. */
const upperCased = (o: OrderStruct): OrderStruct => {
  const upper = (a: Address) => `0x${a.slice(2).toUpperCase()}` as Address;
  return { ...o, maker: upper(o.maker), signer: upper(o.signer), taker: upper(o.taker) };
};
const order: fc.Arbitrary<OrderStruct> = fc.record({
  salt: uint256,
  maker: address,
  signer: address,
  taker: address,
  tokenId: uint256,
  makerAmount: uint256,
  takerAmount: uint256,
  expiration: fc.oneof(fc.constant(0n), fc.bigInt(0n, 2n ** 64n)),
  nonce: uint256,
  feeRateBps: fc.bigInt(0n, 10_000n),
  side: fc.constantFrom(0 as const, 1 as const),
  signatureType: fc.constantFrom(0 as const, 1 as const, 2 as const),
});
const domain: fc.Arbitrary<OrderDomain> = fc.record({
  name: fc.string({ maxLength: 40 }),
  version: fc.constant('1'),
  chainId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  verifyingContract: address,
});

describe('EIP-712 order hasher', () => {
  const config = parseConfig({});
  const domains = orderDomains(config);

  it('builds both domains from configuration', () => {
    assert.deepEqual(domains.exchange, { name: config.exchangeName, version: '1', chainId: 31337, verifyingContract: config.exchangeAddress });
    assert.deepEqual(domains.negRisk, { name: config.exchangeName, version: '1', chainId: 31337, verifyingContract: config.negRiskExchangeAddress });
  });

  it('equals viem hashTypedData on random orders, for the exchange and the neg-risk domain', () => {
    const hash = createMarketOrderHasher(config);
    fc.assert(fc.property(order, (o) => {
      assert.equal(hash(upperCased(o), false), viemHash(domains.exchange, o));
      assert.equal(hash(upperCased(o), true), viemHash(domains.negRisk, o));
    }), { numRuns: 300 });
  });

  it('equals viem hashTypedData on random domains', () => {
    fc.assert(fc.property(domain, order, (d, o) => assert.equal(createOrderHasher(d)(o), viemHash(d, o))), { numRuns: 100 });
  });

  it('separates the two domains', () => {
    const hash = createMarketOrderHasher(config);
    fc.assert(fc.property(order, (o) => assert.notEqual(hash(o, false), hash(o, true))), { numRuns: 20 });
  });

  it('hashes an order that passed the entry rules as its signed message', () => {
    const result = checkCreateOrder(buyInput({ salt: '987654321', nonce: 3, signatureType: 0, maker: caller.address, expiration: NOW_SEC + 60 }), market, caller, NOW_SEC);
    assert.ok(result.ok);
    const struct = orderStructOf(result.order);
    assert.deepEqual(struct, {
      salt: 987_654_321n,
      maker: caller.address,
      signer: caller.address,
      taker: '0x0000000000000000000000000000000000000000',
      tokenId: BigInt(market.tokenId1!),
      makerAmount: 500_000n,
      takerAmount: 1_000_000n,
      expiration: BigInt(NOW_SEC + 60),
      nonce: 3n,
      feeRateBps: 100n,
      side: 0,
      signatureType: 0,
    });
    assert.equal(createOrderHasher(domains.exchange)(struct), viemHash(domains.exchange, struct));
  });

  it('refuses values outside uint256 instead of hashing something else', () => {
    const hash = createOrderHasher(domains.exchange);
    const valid = fc.sample(order, 1)[0]!;
    assert.throws(() => hash({ ...valid, salt: 2n ** 256n }), RangeError);
    assert.throws(() => hash({ ...valid, nonce: -1n }), RangeError);
    assert.throws(() => hash({ ...valid, maker: '0x1234' }), RangeError);
  });
});
