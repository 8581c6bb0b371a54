import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { buyReleaseOnFill, costBaseUnits, maxBuyFeeBaseUnits, reservationFor } from '../../src/core/orders/reservation.ts';

describe('reservations and fees', () => {
  it('charges bps on min(p, 1 − p) × size, rounded down', () => {
    // 100 tokens at 0.30 with 200 bps: 0.02 × 0.30 × 100 = 0.6 collateral
    assert.equal(feeBaseUnits(200, 300_000, 100_000_000n), 600_000n);
    // at 0.70 the fee is charged on 0.30 as well
    assert.equal(feeBaseUnits(200, 700_000, 100_000_000n), 600_000n);
    // 1 bps on 0.01 × 0.5 tokens = 0.0000005 → rounds down to 0
    assert.equal(feeBaseUnits(1, 500_000, 10_000n), 0n);
    assert.equal(feeBaseUnits(0, 500_000, 10_000_000n), 0n);
  });

  it('reserves cost plus the worst fee for a BUY, the tokens for a SELL', () => {
    const buy = { side: 'BUY' as const, limitMicros: 700_000, takerFeeBps: 100, makerFeeBps: 0 };
    assert.equal(reservationFor(buy, 10_000_000n), costBaseUnits(700_000, 10_000_000n) + feeBaseUnits(100, 500_000, 10_000_000n));
    assert.equal(reservationFor({ ...buy, side: 'SELL' }, 10_000_000n), 10_000_000n);
  });

  it('never releases a negative amount and frees everything by the last fill', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99 }).map((c) => c * 10_000),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 99 })), { minLength: 1, maxLength: 10 }),
        (limit, takerBps, makerBps, fills) => {
          const terms = { side: 'BUY' as const, limitMicros: limit, takerFeeBps: takerBps, makerFeeBps: makerBps };
          const total = fills.reduce((sum, [size]) => sum + BigInt(size) * 10_000n, 0n);
          let remaining = total;
          let spent = 0n;
          let released = 0n;
          for (const [size, priceCents] of fills) {
            const fill = BigInt(size) * 10_000n;
            const execution = Math.min(limit, priceCents * 10_000);
            const fee = feeBaseUnits(Math.max(takerBps, makerBps), execution, fill);
            const release = buyReleaseOnFill(terms, remaining, fill, execution, fee);
            assert.ok(release >= 0n, `release ${release} < 0`);
            spent += costBaseUnits(execution, fill) + fee;
            released += release;
            remaining -= fill;
          }
          assert.equal(remaining, 0n);
          assert.equal(spent + released, reservationFor(terms, total));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('bounds the BUY fee by the fee at min(limit, 0.5)', () => {
    assert.equal(maxBuyFeeBaseUnits(900_000, 1_000_000n, 100, 300), feeBaseUnits(300, 500_000, 1_000_000n));
    assert.equal(maxBuyFeeBaseUnits(200_000, 1_000_000n, 100, 300), feeBaseUnits(300, 200_000, 1_000_000n));
  });
});
