import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkCreateOrder, type CreateOrderInput, type NormalizedOrder, type OrderMarket } from '../../src/core/orders/create-order-rules.ts';
import { ORDER_RULE_CODES } from '../../src/core/orders/order-rule-codes.ts';
import { NOW_SEC, OTHER, TOKEN_1, TOKEN_2, ZERO, buyInput, caller, market } from '../helpers/order-fixtures.ts';
import { projectPath } from '../../src/build-output.ts';

const SIGNATURE = `0x${'ab'.repeat(64)}1b`;

function accept(input: CreateOrderInput, onMarket: OrderMarket = market): NormalizedOrder {
  const result = checkCreateOrder(input, onMarket, caller, NOW_SEC);
  if (!result.ok) assert.fail(`expected the order to pass, got ${result.violation.code}: ${result.violation.message}`);
  return result.order;
}

function reject(input: CreateOrderInput, code: string, message: string | RegExp, onMarket: OrderMarket = market): void {
  const result = checkCreateOrder(input, onMarket, caller, NOW_SEC);
  assert.equal(result.ok, false, `expected ${code}`);
  if (result.ok) return;
  assert.equal(result.violation.code, code, result.violation.message);
  if (typeof message === 'string') assert.equal(result.violation.message, message);
  else assert.match(result.violation.message, message);
}

const on = (tickSize: OrderMarket['tickSize']): OrderMarket => ({ ...market, tickSize });

describe('order entry rules: accepted orders', () => {
  it('normalizes an unsigned BUY with the documented defaults', () => {
    assert.deepEqual(accept(buyInput()), {
      tokenId: TOKEN_1,
      outcome: 0,
      side: 'BUY',
      priceMicros: 500_000,
      sizeBaseUnits: 1_000_000n,
      makerAmount: 500_000n,
      takerAmount: 1_000_000n,
      orderType: 'GTC',
      postOnly: false,
      expirationSec: 0,
      maker: caller.proxyWallet,
      signer: caller.address,
      taker: ZERO,
      nonce: 0n,
      feeRateBps: 100,
      signatureType: 1,
      salt: 123_456_789n,
      signature: '',
    });
  });

  it('prices a SELL of token 2 as takerAmount / makerAmount', () => {
    const order = accept(buyInput({ side: 1, tokenId: TOKEN_2, makerAmount: '2000000', takerAmount: '600000', orderType: 'FAK' }));
    assert.equal(order.side, 'SELL');
    assert.equal(order.outcome, 1);
    assert.equal(order.tokenId, TOKEN_2);
    assert.equal(order.priceMicros, 300_000);
    assert.equal(order.sizeBaseUnits, 2_000_000n);
  });

  it('keeps a signed EOA order (signatureType 0: maker is the signer)', () => {
    const order = accept(buyInput({ signature: SIGNATURE, maker: caller.address.toLowerCase(), signer: caller.address.toUpperCase().replace('0X', '0x'), nonce: 7, signatureType: 0, feeRateBps: 100 }));
    assert.equal(order.maker, caller.address);
    assert.equal(order.signer, caller.address);
    assert.equal(order.nonce, 7n);
    assert.equal(order.signatureType, 0);
    assert.equal(order.signature, SIGNATURE);
  });

  it('keeps a signed proxy or safe order (signatureType 1 or 2: maker is the proxy wallet)', () => {
    for (const signatureType of [1, 2]) {
      const order = accept(buyInput({ signature: SIGNATURE, maker: caller.proxyWallet, signer: caller.address, nonce: 0, signatureType }));
      assert.equal(order.maker, caller.proxyWallet);
      assert.equal(order.signatureType, signatureType);
    }
  });

  it('treats an empty signature as an unsigned order', () => {
    assert.equal(accept(buyInput({ signature: '' })).signature, '');
  });

  it('accepts postOnly GTC, a future expiration, a matching priceUint and feeRateBps', () => {
    const order = accept(buyInput({ postOnly: true, expiration: NOW_SEC + 1, priceUint: '500000', feeRateBps: 100 }));
    assert.equal(order.postOnly, true);
    assert.equal(order.expirationSec, NOW_SEC + 1);
  });

  it('accepts 78-character numeric strings and answers the market\'s spelling of the token id', () => {
    const pad = (value: string) => value.padStart(78, '0');
    const order = accept(buyInput({ salt: pad('1'), tokenId: pad(TOKEN_2), makerAmount: pad('500000'), takerAmount: pad('1000000') }));
    assert.equal(order.tokenId, TOKEN_2);
    assert.equal(order.makerAmount, 500_000n);
    assert.equal(order.salt, 1n);
    const maxSalt = (2n ** 256n - 1n).toString();
    assert.equal(accept(buyInput({ salt: maxSalt })).salt, 2n ** 256n - 1n);
  });

  it('computes large amounts exactly, beyond float precision', () => {
    const size = 9_223_372_036_854_775_800n; // the largest multiple of 100 an order may hold
    const sell = accept(buyInput({ side: 1, makerAmount: size.toString(), takerAmount: (size / 100n).toString() }));
    assert.equal(sell.priceMicros, 10_000);
    assert.equal(sell.sizeBaseUnits, size);
    const buy = accept(buyInput({ makerAmount: '3330000000000000000', takerAmount: '9000000000000000000' }));
    assert.equal(buy.priceMicros, 370_000);
  });

  it('handles the 0.0001 tick at its edges', () => {
    const fine = on('0.0001');
    assert.equal(accept(buyInput({ makerAmount: '1', takerAmount: '10000' }), fine).priceMicros, 100);
    assert.equal(accept(buyInput({ makerAmount: '9999', takerAmount: '10000' }), fine).priceMicros, 999_900);
    reject(buyInput({ makerAmount: '3', takerAmount: '15000' }), 'ORDER_SIZE_NOT_ON_TICK',
      'takerAmount 15000 (token base units) is not a multiple of 10000, the size step of tick 0.0001; nearest valid sizes are 10000 and 20000', fine);
    reject(buyInput({ makerAmount: '1', takerAmount: '20000' }), 'ORDER_PRICE_NOT_ON_TICK',
      'price 0.00005 (makerAmount / takerAmount) is not a multiple of the market tick 0.0001; nearest valid price is 0.0001', fine);
  });

  it('on random amounts, accepts exactly the on-tick prices inside (0, 1) and reports them exactly', () => {
    const ticks = ['0.1', '0.01', '0.001', '0.0001'] as const;
    fc.assert(fc.property(fc.constantFrom(...ticks), fc.bigInt(1n, 10n ** 13n), fc.bigInt(1n, 10n ** 13n), (tickSize, collateral, tokens) => {
      const decimals = tickSize.length - 2;
      const result = checkCreateOrder(buyInput({ makerAmount: collateral.toString(), takerAmount: tokens.toString() }), on(tickSize), caller, NOW_SEC);
      const onTick = (collateral * 10n ** BigInt(decimals)) % tokens === 0n;
      const valid = collateral < tokens && onTick && tokens % 10n ** BigInt(decimals) === 0n;
      assert.equal(result.ok, valid);
      if (result.ok) {
        assert.equal(BigInt(result.order.priceMicros) * tokens, collateral * 1_000_000n);
        assert.equal(result.order.priceMicros % 10 ** (6 - decimals), 0);
      }
    }));
  });

  it('on random on-tick prices and sizes, always accepts', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 99 }), fc.bigInt(1n, 10n ** 14n), (cents, steps) => {
      const size = steps * 100n;
      const order = accept(buyInput({ side: 1, makerAmount: size.toString(), takerAmount: (BigInt(cents) * steps).toString() }));
      assert.equal(order.priceMicros, cents * 10_000);
      assert.equal(order.sizeBaseUnits, size);
    }));
  });
});

describe('order entry rules: malformed fields are VALIDATION_FAILED', () => {
  const cases: [string, Partial<Record<keyof CreateOrderInput, unknown>>, string][] = [
    ['salt not numeric', { salt: '12a' }, 'salt must be a numeric string of decimal digits, got "12a"'],
    ['salt too long', { salt: '1'.repeat(79) }, 'salt is 79 characters long; the limit is 78'],
    ['salt beyond uint256', { salt: '9'.repeat(78) }, `salt ${'9'.repeat(78)} does not fit in a uint256`],
    ['tokenId not numeric', { tokenId: '0x12' }, 'tokenId must be a numeric string of decimal digits, got "0x12"'],
    ['tokenId too long', { tokenId: '1'.repeat(79) }, 'tokenId is 79 characters long; the limit is 78'],
    ['makerAmount decimal', { makerAmount: '1.5' }, 'makerAmount must be a numeric string of decimal digits, got "1.5"'],
    ['makerAmount negative', { makerAmount: '-1' }, 'makerAmount must be a numeric string of decimal digits, got "-1"'],
    ['takerAmount empty', { takerAmount: '' }, 'takerAmount must be a numeric string of decimal digits, got ""'],
    ['takerAmount too long', { takerAmount: '1'.repeat(79) }, 'takerAmount is 79 characters long; the limit is 78'],
    ['taker not an address', { taker: '0x123' }, 'taker must be a 20-byte address (0x and 40 hex digits), got "0x123"'],
    ['side 2', { side: 2 }, 'side must be 0 (buy) or 1 (sell), got 2'],
    ['orderType unknown', { orderType: 'IOC' }, 'orderType must be one of GTC, FOK, FAK, got "IOC"'],
    ['expiration negative', { expiration: -1 }, 'expiration must be Unix seconds or 0, got -1'],
    ['expiration fractional', { expiration: 1.5 }, 'expiration must be Unix seconds or 0, got 1.5'],
    ['postOnly not boolean', { postOnly: 'yes' }, 'postOnly must be a boolean'],
    ['feeRateBps above 10000', { feeRateBps: 10_001 }, 'feeRateBps must be an integer from 0 to 10000, got 10001'],
    ['feeRateBps negative', { feeRateBps: -1 }, 'feeRateBps must be an integer from 0 to 10000, got -1'],
    ['priceUint not numeric', { priceUint: '0.5' }, 'priceUint must be an integer string of at most 78 digits, got "0.5"'],
    ['maker not an address', { maker: 'alice' }, 'maker must be a 20-byte address (0x and 40 hex digits), got "alice"'],
    ['signer not an address', { signer: `0x${'g'.repeat(40)}` }, `signer must be a 20-byte address (0x and 40 hex digits), got "0x${'g'.repeat(40)}"`],
    ['nonce negative', { nonce: -1 }, 'nonce must be a non-negative integer, got -1'],
    ['signatureType 3', { signatureType: 3 }, 'signatureType must be 0 (EOA), 1 (proxy wallet) or 2 (safe wallet), got 3'],
  ];
  for (const [name, overrides, message] of cases) {
    it(name, () => reject(buyInput(overrides), 'VALIDATION_FAILED', message));
  }

  it('reports a malformed field before the market state', () => {
    reject(buyInput({ salt: 'x' }), 'VALIDATION_FAILED', /salt/, { ...market, isPaused: true });
  });
});

describe('order entry rules: specific order codes', () => {
  it('ORDER_AMOUNT_INVALID for zero and for amounts past 2^63 - 1', () => {
    reject(buyInput({ makerAmount: '0' }), 'ORDER_AMOUNT_INVALID', 'makerAmount must be a positive integer of base units, got 0');
    reject(buyInput({ takerAmount: '000' }), 'ORDER_AMOUNT_INVALID', 'takerAmount must be a positive integer of base units, got 000');
    reject(buyInput({ takerAmount: (2n ** 63n).toString() }), 'ORDER_AMOUNT_INVALID',
      'takerAmount 9223372036854775808 exceeds the largest order amount, 9223372036854775807 base units');
  });

  it('MARKET_NOT_TRADABLE when not ACTIVE, resolved or paused', () => {
    reject(buyInput(), 'MARKET_NOT_TRADABLE', `market ${market.id} is not ACTIVE (status DRAFT)`, { ...market, status: 'DRAFT' });
    reject(buyInput(), 'MARKET_NOT_TRADABLE', `market ${market.id} is not ACTIVE (status RESOLVED)`, { ...market, status: 'RESOLVED' });
    reject(buyInput(), 'MARKET_NOT_TRADABLE', `market ${market.id} is resolved`, { ...market, isResolved: true });
    reject(buyInput(), 'MARKET_NOT_TRADABLE', `market ${market.id} is paused`, { ...market, isPaused: true });
  });

  it('ORDER_TOKEN_NOT_IN_MARKET for another token, and for a market without tokens', () => {
    reject(buyInput({ tokenId: '42' }), 'ORDER_TOKEN_NOT_IN_MARKET', `tokenId 42 is not one of market ${market.id}'s tokens (tokenId1 ${TOKEN_1}, tokenId2 ${TOKEN_2})`);
    reject(buyInput(), 'ORDER_TOKEN_NOT_IN_MARKET', /tokenId1 null, tokenId2 null/, { ...market, tokenId1: null, tokenId2: null });
  });

  it('ORDER_TAKER_NOT_ZERO', () => {
    reject(buyInput({ taker: OTHER }), 'ORDER_TAKER_NOT_ZERO', `taker must be the zero address ${ZERO}, got ${OTHER}`);
  });

  it('ORDER_PRICE_OUT_OF_RANGE at 1 and above, for either side', () => {
    reject(buyInput({ makerAmount: '1000000' }), 'ORDER_PRICE_OUT_OF_RANGE', 'price 1 (makerAmount / takerAmount for a BUY) must be strictly between 0 and 1');
    reject(buyInput({ makerAmount: '1500000' }), 'ORDER_PRICE_OUT_OF_RANGE', 'price 1.5 (makerAmount / takerAmount for a BUY) must be strictly between 0 and 1');
    reject(buyInput({ side: 1, makerAmount: '1000000', takerAmount: '2000000' }), 'ORDER_PRICE_OUT_OF_RANGE', 'price 2 (takerAmount / makerAmount for a SELL) must be strictly between 0 and 1');
  });

  it('ORDER_PRICE_NOT_ON_TICK names the price, the tick and the nearest valid prices', () => {
    reject(buyInput({ makerAmount: '1234', takerAmount: '10000' }), 'ORDER_PRICE_NOT_ON_TICK',
      'price 0.1234 (makerAmount / takerAmount) is not a multiple of the market tick 0.01; nearest valid prices are 0.12 and 0.13');
    reject(buyInput({ makerAmount: '1000000', takerAmount: '3000000' }), 'ORDER_PRICE_NOT_ON_TICK',
      'price 0.333333333333… (makerAmount / takerAmount) is not a multiple of the market tick 0.01; nearest valid prices are 0.33 and 0.34');
    reject(buyInput({ makerAmount: '5000', takerAmount: '1000000' }), 'ORDER_PRICE_NOT_ON_TICK', /nearest valid price is 0\.01$/);
    reject(buyInput({ side: 1, makerAmount: '1000000', takerAmount: '995000' }), 'ORDER_PRICE_NOT_ON_TICK',
      'price 0.995 (takerAmount / makerAmount) is not a multiple of the market tick 0.01; nearest valid price is 0.99');
    reject(buyInput({ makerAmount: '550000' }), 'ORDER_PRICE_NOT_ON_TICK', /nearest valid prices are 0.5 and 0.6$/, on('0.1'));
  });

  it('ORDER_SIZE_NOT_ON_TICK names the token amount and the step', () => {
    reject(buyInput({ makerAmount: '1', takerAmount: '5' }), 'ORDER_SIZE_NOT_ON_TICK', /takerAmount 5 .* multiple of 10, .*; nearest valid sizes are 10$/, on('0.1'));
    reject(buyInput({ side: 1, makerAmount: '1000050', takerAmount: '500025' }), 'ORDER_SIZE_NOT_ON_TICK',
      'makerAmount 1000050 (token base units) is not a multiple of 100, the size step of tick 0.01; nearest valid sizes are 1000000 and 1000100');
  });

  it('ORDER_PRICE_UINT_MISMATCH', () => {
    reject(buyInput({ priceUint: '500001' }), 'ORDER_PRICE_UINT_MISMATCH', 'priceUint 500001 does not match the order\'s price 0.5, which is 500000 in millionths');
    reject(buyInput({ priceUint: '50' }), 'ORDER_PRICE_UINT_MISMATCH', /which is 500000 in millionths/);
  });

  it('ORDER_FEE_RATE_MISMATCH', () => {
    reject(buyInput({ feeRateBps: 0 }), 'ORDER_FEE_RATE_MISMATCH', 'feeRateBps 0 does not match the market\'s orderFeeRateBps 100 (1%)');
  });

  it('ORDER_POST_ONLY_NOT_GTC for FOK and FAK', () => {
    reject(buyInput({ postOnly: true, orderType: 'FOK' }), 'ORDER_POST_ONLY_NOT_GTC', 'postOnly is valid only for GTC orders, got orderType FOK');
    reject(buyInput({ postOnly: true, orderType: 'FAK' }), 'ORDER_POST_ONLY_NOT_GTC', 'postOnly is valid only for GTC orders, got orderType FAK');
    assert.equal(accept(buyInput({ postOnly: false, orderType: 'FOK' })).postOnly, false);
  });

  it('ORDER_EXPIRED at and before the current time', () => {
    reject(buyInput({ expiration: NOW_SEC }), 'ORDER_EXPIRED', `expiration ${NOW_SEC} is not in the future (server time ${NOW_SEC}); use 0 for an order that does not expire`);
    reject(buyInput({ expiration: 1 }), 'ORDER_EXPIRED', /expiration 1 is not in the future/);
  });

  it('ORDER_SIGNATURE_FIELDS_MISSING lists what a signed order lacks', () => {
    reject(buyInput({ signature: SIGNATURE }), 'ORDER_SIGNATURE_FIELDS_MISSING', 'a signed order must also send maker, signer, nonce, signatureType');
    reject(buyInput({ signature: SIGNATURE, maker: caller.proxyWallet, signer: caller.address, signatureType: 1 }), 'ORDER_SIGNATURE_FIELDS_MISSING', 'a signed order must also send nonce');
  });
});

describe('order entry rules: INVALID_SIGNATURE', () => {
  const signed = (overrides: Partial<Record<keyof CreateOrderInput, unknown>>) =>
    buyInput({ signature: SIGNATURE, maker: caller.proxyWallet, signer: caller.address, nonce: 0, signatureType: 1, ...overrides });

  it('for a signature that is not 65 bytes of hex', () => {
    reject(signed({ signature: '0x1234' }), 'INVALID_SIGNATURE', 'signature must be 65 bytes as 0x-hex (132 characters), got 6 characters');
    reject(signed({ signature: `0x${'zz'.repeat(65)}` }), 'INVALID_SIGNATURE', /got 132 characters/);
  });

  it('for a signer that is not the caller', () => {
    reject(signed({ signer: OTHER }), 'INVALID_SIGNATURE', `signer ${OTHER} is not your sign-in address ${caller.address}`);
  });

  it('for a maker that does not fit the signature type', () => {
    reject(signed({ signatureType: 0 }), 'INVALID_SIGNATURE', `maker ${caller.proxyWallet} must be the signer ${caller.address} for signatureType 0 (EOA)`);
    reject(signed({ maker: caller.address }), 'INVALID_SIGNATURE', `maker ${caller.address} must be your proxy wallet ${caller.proxyWallet} for signatureType 1`);
    reject(signed({ maker: OTHER, signatureType: 2 }), 'INVALID_SIGNATURE', `maker ${OTHER} must be your proxy wallet ${caller.proxyWallet} for signatureType 2`);
  });

  it('holds unsigned orders that name their parties to the same rules', () => {
    reject(buyInput({ signer: OTHER }), 'INVALID_SIGNATURE', /is not your sign-in address/);
    reject(buyInput({ maker: caller.address }), 'INVALID_SIGNATURE', /must be your proxy wallet/);
    assert.equal(accept(buyInput({ maker: caller.address, signatureType: 0 })).maker, caller.address);
  });
});

describe('order rule codes', () => {
  it('documents every code the rules answer, and the README lists them all', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(projectPath('src/core/orders/README.md'), 'utf8');
    for (const code of Object.keys(ORDER_RULE_CODES)) assert.match(readme, new RegExp(`\\b${code}\\b`), code);
  });
});
