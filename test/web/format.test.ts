/** The web app's one money formatter and its one price formatter (src/web/src/format.ts), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../../src/client/index.ts';
import { centsScale } from '../../src/web/src/chart-scale.ts';
import { activityPrice, cents, centsOf, describeOrder, fee, money, period, shares, sharesOf, usd } from '../../src/web/src/format.ts';

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

  it("shows a price with as many decimals of a cent as its market's tick needs, never rounded to another", () => {
    // A hundredth of a cent on 0.0001: 41.55¢ read 41.6¢ at a tenth of a cent.
    assert.deepEqual(['0.4155', '0.415', '0.4', '0.0001', '0.9999'].map((price) => cents(price, '0.0001')), ['41.55¢', '41.50¢', '40.00¢', '0.01¢', '99.99¢']);
    assert.deepEqual(['0.415', '0.4', '0.001'].map((price) => cents(price, '0.001')), ['41.5¢', '40.0¢', '0.1¢']);
    assert.deepEqual(['0.41', '0.4', '0.01'].map((price) => cents(price, '0.01')), ['41¢', '40¢', '1¢']);
    assert.equal(cents('0.4', '0.1'), '40¢');
    assert.equal(cents(undefined, '0.01'), '—');
  });

  it('shows a price between the ticks (a midpoint, an average) to a tenth of the tick, that digit only when not 0', () => {
    // Midpoints are half a tick: exact.
    assert.equal(centsOf(415_000n, '0.01'), '41.5¢');
    assert.equal(centsOf(415_550n, '0.0001'), '41.555¢');
    // Averages, fees included: rounded to a tenth of the tick, halves away from zero.
    assert.equal(centsOf(412_345n, '0.01'), '41.2¢');
    assert.equal(centsOf(412_345n, '0.001'), '41.23¢');
    assert.equal(centsOf(412_345n, '0.0001'), '41.235¢');
    assert.equal(centsOf(412_000n, '0.0001'), '41.20¢');
    assert.equal(centsOf(999_960n, '0.01'), '100¢');
  });

  it("shows a price of a market not known with the decimals it has, never rounded to a tick's", () => {
    assert.deepEqual(['0.4155', '0.415', '0.4', '0.412345'].map((price) => cents(price)), ['41.55¢', '41.5¢', '40¢', '41.235¢']);
  });

  it("labels the price axis with the same formatter, from the library's floats", () => {
    const { formatter, minMove } = centsScale('0.0001');
    assert.equal(minMove, 0.0001);
    assert.deepEqual([0.4155, 0.41, 0.1 + 0.2, 0.41553].map(formatter), ['41.55¢', '41.00¢', '30.00¢', '41.553¢']);
    assert.deepEqual([0.41, 0.415].map(centsScale('0.01').formatter), ['41¢', '41.5¢']);
  });

  it("describes an order at its price on its market's tick", () => {
    const order = { side: 0, amount: 10, outcome: 'Yes', orderType: 'GTC', price: 0.415, matchedAmount: 0, status: 'PENDING' } as Order;
    assert.equal(describeOrder(order, '0.0001'), 'Buy 10.00 Yes at 41.50¢: resting in the book.');
    assert.equal(describeOrder({ ...order, price: 0.4155 }, '0.0001'), 'Buy 10.00 Yes at 41.55¢: resting in the book.');
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
    assert.equal(activityPrice('BUY', '0.4155', '0.0001'), '41.55¢');
  });
});
