/** The web app's one current-price definition and its own-order marks (src/web/src), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market, Order, TradeActivity } from '../../src/client/index.ts';
import { ownLevels } from '../../src/web/src/own-orders.ts';
import { estimateBuy, estimateSell } from '../../src/web/src/market-estimate.ts';
import { currentPrice, livePrice } from '../../src/web/src/price.ts';

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

describe("a market's live price", () => {
  const market = (chance: number, traded: boolean) => ({ id: 'm', chance, firstPriceDataAt: traded ? '2026-12-01T00:00:00Z' : null }) as Market;
  const level = (price: string) => ({ price, size: '10' });
  it("takes the last trade from the API's chance when the trades at hand do not have it, as a page without a trades feed does", () => {
    assert.equal(livePrice(market(0.52, true), level('0.49'), level('0.53')), 510_000n, 'a tight book: its midpoint');
    assert.equal(livePrice(market(0.52, true), level('0.3'), level('0.7')), 520_000n, 'a wide book: the last trade, the chance');
    assert.equal(livePrice(market(0.5, false), level('0.3'), level('0.7')), 500_000n, 'no trade yet: the wide midpoint');
    const trade = { marketId: 'm', price: '0.4', outcome: 'Side_B' } as TradeActivity;
    assert.equal(livePrice(market(0.52, true), level('0.3'), level('0.7'), [trade]), 600_000n, 'a newer trade at hand wins, in outcome 1 terms');
    assert.equal(livePrice(market(0.52, true), undefined, undefined), 520_000n);
  });
});

describe('own orders in the book', () => {
  const order = (tokenId: string, side: 0 | 1, priceUint: string, amount: number, matchedAmount = 0) => ({ tokenId, side, priceUint, amount, matchedAmount }) as Order;
  it("places each order on its level of the viewed token's book, open shares only", () => {
    const levels = ownLevels([order('A', 0, '300000', 10, 4), order('A', 1, '600000', 5), order('B', 0, '650000', 2), order('B', 1, '800000', 3), order('A', 0, '300000', 1)], 'A');
    assert.deepEqual(Object.fromEntries(levels), { 'bid:300000': 7_000_000n, 'ask:600000': 5_000_000n, 'ask:350000': 2_000_000n, 'bid:200000': 3_000_000n });
  });
});

describe('a market order estimated from the book', () => {
  const level = (cents: number, shares: number) => ({ price: BigInt(cents) * 10_000n, size: BigInt(shares) * 1_000_000n });
  const STEP = 100n; // tick 0.01: sizes to 4 decimals
  it('spends a dollar amount on the asks from the best up, with its average, worst price and slippage', () => {
    // $10 buys 10 at 40¢ ($4) and 13.6363 at 44¢ ($5.999972).
    const estimate = estimateBuy([level(40, 10), level(44, 100)], 10_000_000n, STEP)!;
    assert.equal(estimate.shares, 23_636_300n);
    assert.equal(estimate.notional, 9_999_972n);
    assert.equal(estimate.worstPrice, 440_000n);
    assert.equal(estimate.averagePrice, 423_077n, '9.999972 / 23.6363, rounded up');
    assert.equal(estimate.slippage, 23_077n);
    assert.equal(estimate.complete, true);
    assert.equal(estimateBuy([level(40, 10)], 10_000_000n, STEP)!.complete, false, 'the book ran out first');
    assert.equal(estimateBuy([], 10_000_000n, STEP), undefined);
  });

  it('sells shares into the bids from the best down', () => {
    const estimate = estimateSell([level(40, 5), level(38, 100)], 10_000_000n)!;
    assert.deepEqual([estimate.shares, estimate.notional, estimate.worstPrice, estimate.averagePrice, estimate.slippage, estimate.complete], [10_000_000n, 3_900_000n, 380_000n, 390_000n, 10_000n, true]);
  });
});
