/** The web app's one money formatter and its price display (src/web/src/format.ts), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activityPrice, cents, centsOf, fee, money, period, shares, sharesOf, usd } from '../../src/web/src/format.ts';

describe('web app formatting', () => {
  it('shows money to the cent, rounding halves away from zero', () => {
    assert.equal(usd('995.992'), '$995.99');
    assert.equal(usd('995.995'), '$996.00');
    assert.equal(usd('1234567.5'), '$1,234,567.50');
    assert.equal(usd('-0.004'), '$0.00');
    assert.equal(usd('-1.205'), '−$1.21');
    assert.equal(usd(12.3456), '$12.35');
    assert.equal(usd(undefined), '—');
    assert.equal(money(8_000n), '$0.01');
  });

  it('shows prices in cents to a tenth of a cent at most', () => {
    assert.equal(cents('0.4'), '40¢');
    assert.equal(cents('0.425'), '42.5¢');
    assert.equal(cents('0.412345'), '41.2¢');
    assert.equal(centsOf(999_960n), '100¢');
  });

  it('shows a fee exactly, never a non-zero fee as $0.00, and no fee as None', () => {
    assert.equal(fee(900n), '$0.0009');
    assert.equal(fee(18_900n), '$0.0189');
    assert.equal(fee(1_200_000n), '$1.20');
    assert.equal(fee(0n), 'None');
  });

  it('shows shares to the hundredth everywhere, cut toward zero, dust as <0.01', () => {
    assert.equal(shares('100'), '100.00');
    assert.equal(shares('21.1299'), '21.12');
    assert.equal(shares('1234.5'), '1,234.50');
    assert.equal(sharesOf(4_000n), '<0.01');
    assert.equal(sharesOf(0n), '0.00');
  });

  it("names a series' period (EXTENSIONS.md section 13: 15m, 1h, 4h, 1d)", () => {
    const minute = 60_000;
    assert.deepEqual([15 * minute, 60 * minute, 240 * minute, 1_440 * minute].map(period), ['15 minutes', 'hour', '4 hours', 'day']);
    assert.deepEqual([minute, 90 * minute, 2_880 * minute].map(period), ['minute', '90 minutes', '2 days']);
  });

  it("shows no price on a split or a merge (the API's \"1\"), and a redeem's as what a share paid", () => {
    const rows: [string, string][] = [['BUY', '0.42'], ['SELL', '0.42'], ['SPLIT', '1'], ['MERGE', '1'], ['REDEEM', '0.5']];
    assert.deepEqual(rows.map(([type, price]) => activityPrice(type, price)), ['42¢', '42¢', '—', '—', 'paid 50¢ a share']);
  });
});
