/** The web app's one current-price definition and its own-order marks (src/web/src), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '../../src/client/index.ts';
import { ownLevels } from '../../src/web/src/own-orders.ts';
import { currentPrice } from '../../src/web/src/price.ts';

describe('the current price', () => {
  it('is the midpoint, or the last trade when the spread is wider than 10¢', () => {
    assert.equal(currentPrice({ bestBid: 400_000n, bestAsk: 440_000n, lastTrade: 300_000n }), 420_000n);
    assert.equal(currentPrice({ bestBid: 400_000n, bestAsk: 500_000n, lastTrade: 300_000n }), 450_000n, '10¢ is not wide');
    assert.equal(currentPrice({ bestBid: 400_000n, bestAsk: 510_000n, lastTrade: 300_000n }), 300_000n);
    assert.equal(currentPrice({ bestBid: 400_000n, bestAsk: 600_000n, lastTrade: undefined }), 500_000n, 'no trade yet: the midpoint still');
    assert.equal(currentPrice({ bestBid: 400_000n, bestAsk: undefined, lastTrade: 410_000n }), 410_000n);
    assert.equal(currentPrice({ bestBid: undefined, bestAsk: undefined, lastTrade: undefined }), undefined);
  });
});

describe('own orders in the book', () => {
  const order = (tokenId: string, side: 0 | 1, priceUint: string, amount: number, matchedAmount = 0) => ({ tokenId, side, priceUint, amount, matchedAmount }) as Order;
  it("places each order on its level of the viewed token's book, open shares only", () => {
    const levels = ownLevels([order('A', 0, '300000', 10, 4), order('A', 1, '600000', 5), order('B', 0, '650000', 2), order('B', 1, '800000', 3), order('A', 0, '300000', 1)], 'A');
    assert.deepEqual(Object.fromEntries(levels), { 'bid:300000': 7_000_000n, 'ask:600000': 5_000_000n, 'ask:350000': 2_000_000n, 'bid:200000': 3_000_000n });
  });
});
