import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  complementPrice, formatPrice, formatUnits, formatUnitsPadded, parseUnits, PRICE_ONE, priceToCents, priceToNumber, unitsFromNumber, unitsToCentsNumber, unitsToNumber,
} from '../../src/core/money.ts';

describe('money', () => {
  it('formats base units as display decimals without trailing zeros', () => {
    assert.equal(formatUnits(0n), '0');
    assert.equal(formatUnits(1n), '0.000001');
    assert.equal(formatUnits(12_500_000n), '12.5');
    assert.equal(formatUnits(1_000_000n), '1');
    assert.equal(formatUnits(123_456_789_012n), '123456.789012');
  });

  it('parses display decimals exactly and refuses what it would have to round', () => {
    assert.equal(parseUnits('12.5'), 12_500_000n);
    assert.equal(parseUnits('0'), 0n);
    assert.equal(parseUnits('0.000001'), 1n);
    for (const bad of ['', '-1', '+1', '1.', '.5', '1.0000001', '1e6', '01', ' 1', 'abc', '1,5', 'NaN']) {
      assert.equal(parseUnits(bad), undefined, bad);
    }
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 80n }), (units) => parseUnits(formatUnits(units)) === units));
  });

  it('turns number bounds into base units', () => {
    assert.equal(unitsFromNumber(10), 10_000_000n);
    assert.equal(unitsFromNumber(0.5), 500_000n);
    assert.equal(unitsFromNumber(-1), undefined);
    assert.equal(unitsFromNumber(Number.POSITIVE_INFINITY), undefined);
    assert.equal(unitsFromNumber(1e16), undefined);
    assert.equal(unitsToNumber(12_345_000n), 12.345);
  });

  it('has one 1.0 for prices and one complement, for bigint and number prices alike', () => {
    assert.equal(PRICE_ONE, 1_000_000n);
    assert.equal(complementPrice(550_000n), 450_000n);
    assert.equal(complementPrice(550_000), 450_000);
  });

  it('formats prices from integers, and makes JSON numbers from the exact decimals', () => {
    assert.equal(formatPrice(550_000n), '0.55');
    assert.equal(formatPrice(1), '0.000001');
    assert.equal(priceToNumber(123_457), 0.123457);
    assert.equal(priceToCents(123_456n), 12.3456);
    assert.equal(formatUnitsPadded(600_000n), '0.600000');
    assert.equal(formatUnitsPadded(-1n), '-0.000001');
    assert.equal(unitsToCentsNumber(1_234_999n), 1.23);
    assert.equal(unitsToCentsNumber(1_235_000n), 1.24);
    fc.assert(fc.property(fc.integer({ min: 1, max: 999_999 }), (p) => priceToNumber(p) === p / 1e6 && priceToNumber(complementPrice(p)) === Math.round((1 - p / 1e6) * 1e6) / 1e6));
  });
});
