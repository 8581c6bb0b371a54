// The fees a transaction of the exchange's is signed at, new or replacing a pooled one (the
// settlement sender's and the operator's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cappedFees, replacementFees } from '../../src/core/transaction-fees.ts';

test('a replacement raises both fees by the bump (nodes ask at least 10%), follows a higher estimate, and stops at the cap', () => {
  const last = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
  assert.deepEqual(replacementFees(last, { maxFeePerGas: 50n, maxPriorityFeePerGas: 5n }, 20, undefined), { maxFeePerGas: 120n, maxPriorityFeePerGas: 12n });
  assert.deepEqual(replacementFees(last, { maxFeePerGas: 300n, maxPriorityFeePerGas: 30n }, 20, undefined), { maxFeePerGas: 300n, maxPriorityFeePerGas: 30n });
  assert.deepEqual(replacementFees(last, { maxFeePerGas: 50n, maxPriorityFeePerGas: 5n }, 20, 110n), { maxFeePerGas: 110n, maxPriorityFeePerGas: 12n });
});

test("a replacement never goes past three times the market's estimate, nor a cap that leaves no room for the 10% a node asks: none is sent", () => {
  const last = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
  assert.deepEqual(replacementFees(last, { maxFeePerGas: 38n, maxPriorityFeePerGas: 4n }, 20, undefined), { maxFeePerGas: 114n, maxPriorityFeePerGas: 12n });
  assert.equal(replacementFees(last, { maxFeePerGas: 35n, maxPriorityFeePerGas: 4n }, 20, undefined), null);
  assert.equal(replacementFees(last, { maxFeePerGas: 50n, maxPriorityFeePerGas: 5n }, 20, 105n), null);
});

test("a new transaction pays the market's estimate, never above the cap", () => {
  const market = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
  assert.deepEqual(cappedFees(market, undefined), market);
  assert.deepEqual(cappedFees(market, 80n), { maxFeePerGas: 80n, maxPriorityFeePerGas: 10n });
  assert.deepEqual(cappedFees(market, 5n), { maxFeePerGas: 5n, maxPriorityFeePerGas: 5n });
});
