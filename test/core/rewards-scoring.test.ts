import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { boostAt, DAY_MS, makerScores, minuteBudget, MINUTE_MS, splitBudget, windowMinutes, type RestingQuote, type ScoringParams } from '../../src/core/rewards/index.ts';

/**
 * A direct transcription of EXTENSIONS.md section 5 in floating point: per maker, the sum over its
 * qualifying orders of ((v − s) / v)² × size on each side, then the two-sided rule.
 */
function referenceScores(quotes: RestingQuote[], params: ScoringParams): Map<string, number> {
  const bookPrice = (q: RestingQuote) => (q.outcome === 0 ? q.priceMicros : 1e6 - q.priceMicros) / 1e6;
  const isBid = (q: RestingQuote) => (q.outcome === 0) === (q.side === 'BUY');
  const bids = quotes.filter(isBid).map(bookPrice);
  const asks = quotes.filter((q) => !isBid(q)).map(bookPrice);
  const result = new Map<string, number>();
  if (bids.length === 0 || asks.length === 0) return result;
  const mid = (Math.max(...bids) + Math.min(...asks)) / 2;
  const normal = mid >= 0.1 - 1e-12 && mid <= 0.9 + 1e-12;
  const v = (normal ? params.maxDistanceMicros : params.extremeMaxDistanceMicros) / 1e6;
  const sides = new Map<string, { bid: number; ask: number }>();
  for (const q of quotes) {
    const size = Number(q.remainingBaseUnits) / 1e6;
    const notional = (q.priceMicros / 1e6) * size;
    const s = Math.abs(mid - bookPrice(q));
    if (notional + 1e-9 < Number(params.minOrderSizeBaseUnits) / 1e6 || s >= v - 1e-12) continue;
    const score = ((v - s) / v) ** 2 * size;
    const entry = sides.get(q.makerId) ?? { bid: 0, ask: 0 };
    if (isBid(q)) entry.bid += score;
    else entry.ask += score;
    sides.set(q.makerId, entry);
  }
  for (const [maker, { bid, ask }] of sides) {
    const score = normal && Math.min(bid, ask) === 0 ? Math.max(bid, ask) / 3 : Math.min(bid, ask);
    if (score > 0) result.set(maker, score);
  }
  return result;
}

const quoteArb = fc.record({
  orderId: fc.uuid(),
  makerId: fc.constantFrom('maker-a', 'maker-b', 'maker-c', 'maker-d'),
  outcome: fc.constantFrom(0 as const, 1 as const),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  priceMicros: fc.integer({ min: 1, max: 999 }).map((cents) => cents * 1000),
  remainingBaseUnits: fc.integer({ min: 1, max: 10_000 }).map((tokens) => BigInt(tokens) * 1000n),
});
const paramsArb = fc.record({
  maxDistanceMicros: fc.integer({ min: 1, max: 200 }).map((v) => v * 500),
  extremeMaxDistanceMicros: fc.integer({ min: 1, max: 200 }).map((v) => v * 500),
  minOrderSizeBaseUnits: fc.integer({ min: 0, max: 50_000_000 }).map(BigInt),
});

describe('reward scoring', () => {
  it('gives each maker the share the formula gives, up to the last base unit', () => {
    fc.assert(fc.property(fc.array(quoteArb, { maxLength: 30 }), paramsArb, fc.bigInt({ min: 0n, max: 10n ** 12n }), (quotes, params, budget) => {
      const exact = makerScores(quotes, params);
      const reference = referenceScores(quotes, params);
      assert.deepEqual([...exact.keys()].sort(), [...reference.keys()].sort());
      const shares = splitBudget(budget, exact);
      const total = [...reference.values()].reduce((a, b) => a + b, 0);
      for (const [maker, share] of shares) {
        const expected = (Number(budget) * reference.get(maker)!) / total;
        assert.ok(Math.abs(Number(share) - expected) <= 1 + expected * 1e-9, `${maker}: ${share} vs ${expected}`);
      }
    }), { numRuns: 500 });
  });

  it('scores a two-sided maker by its weaker side and a one-sided maker by a third, inside [0.10, 0.90]', () => {
    const params: ScoringParams = { maxDistanceMicros: 30_000, extremeMaxDistanceMicros: 10_000, minOrderSizeBaseUnits: 0n };
    const q = (makerId: string, side: 'BUY' | 'SELL', priceMicros: number, tokens: bigint): RestingQuote => ({ orderId: `${makerId}${side}${priceMicros}`, makerId, outcome: 0, side, priceMicros, remainingBaseUnits: tokens * 1_000_000n });
    // Midpoint 0.50; v2 = 60,000; a quote 0.01 away has closeness 40,000.
    const scores = makerScores([q('two', 'BUY', 490_000, 100n), q('two', 'SELL', 510_000, 50n), q('one', 'BUY', 490_000, 100n)], params);
    const unit = 40_000n * 40_000n * 1_000_000n;
    assert.equal(scores.get('two'), 3n * 50n * unit);
    assert.equal(scores.get('one'), 100n * unit);
    // The smaller side even when it is below a third of the larger: 10, not 100 / 3.
    const lopsided = makerScores([q('two', 'BUY', 490_000, 100n), q('two', 'SELL', 510_000, 10n)], params);
    assert.equal(lopsided.get('two'), 3n * 10n * unit);
  });

  it('requires both sides outside [0.10, 0.90] and measures them against extremeMaxDistanceFromMid', () => {
    const params: ScoringParams = { maxDistanceMicros: 30_000, extremeMaxDistanceMicros: 20_000, minOrderSizeBaseUnits: 0n };
    const q = (makerId: string, side: 'BUY' | 'SELL', priceMicros: number): RestingQuote => ({ orderId: `${makerId}${side}`, makerId, outcome: 0, side, priceMicros, remainingBaseUnits: 10_000_000n });
    const scores = makerScores([q('two', 'BUY', 40_000), q('two', 'SELL', 60_000), q('one', 'BUY', 35_000)], params);
    assert.equal(scores.has('one'), false);
    assert.equal(scores.get('two'), 3n * 20_000n * 20_000n * 10_000_000n);
  });

  it('counts a BUY of token 2 at q as an ask at 1 − q', () => {
    const params: ScoringParams = { maxDistanceMicros: 30_000, extremeMaxDistanceMicros: 30_000, minOrderSizeBaseUnits: 0n };
    const base = { remainingBaseUnits: 10_000_000n, side: 'BUY' as const };
    const scores = makerScores([{ ...base, orderId: '1', makerId: 'm', outcome: 0, priceMicros: 490_000 }, { ...base, orderId: '2', makerId: 'm', outcome: 1, priceMicros: 490_000 }], params);
    assert.equal(scores.get('m'), 3n * 40_000n * 40_000n * 10_000_000n);
  });

  it('leaves out orders below minOrderSizeUsdc, measured as own price × remaining size', () => {
    const params: ScoringParams = { maxDistanceMicros: 30_000, extremeMaxDistanceMicros: 30_000, minOrderSizeBaseUnits: 51_000_000n };
    const sellAt51 = { orderId: 's', makerId: 'm', outcome: 0 as const, side: 'SELL' as const, priceMicros: 510_000, remainingBaseUnits: 100_000_000n };
    const buyAt49 = { ...sellAt51, orderId: 'b', side: 'BUY' as const, priceMicros: 490_000 };
    const scores = makerScores([sellAt51, buyAt49], params);
    // The SELL's notional is exactly 51 and qualifies; the BUY's is 49 and does not.
    assert.equal(scores.get('m'), 40_000n * 40_000n * 100_000_000n);
  });
});

describe('reward budget split', () => {
  it('always sums to the budget and never gives anyone more than one base unit above its fair part', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.array(fc.bigInt({ min: 1n, max: 10n ** 20n }), { minLength: 1, maxLength: 20 }), (budget, raw) => {
      const scores = new Map(raw.map((s, i) => [`m${i}`, s]));
      const shares = splitBudget(budget, scores);
      const total = raw.reduce((a, b) => a + b, 0n);
      assert.equal([...shares.values()].reduce((a, b) => a + b, 0n), budget);
      for (const [maker, share] of shares) {
        const floor = (budget * scores.get(maker)!) / total;
        assert.ok(share === floor || share === floor + 1n);
      }
    }));
  });
});

describe('reward window', () => {
  const day = Date.UTC(2026, 10, 25);
  it('pays a day without boosts exactly the committed reward, over any window', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: DAY_MS - 1 }), fc.integer({ min: 1, max: DAY_MS }), (reward, startOffset, length) => {
      const w = { dayStartMs: day, startMs: day + startOffset, endMs: day + startOffset + length, rewardBaseUnits: reward, boosts: [] };
      const { first, end } = windowMinutes(w);
      let sum = 0n;
      for (let k = first - 2; k < end + 2; k++) sum += minuteBudget(w, k);
      assert.equal(sum, first === end ? 0n : reward);
    }), { numRuns: 50 });
  });

  it('applies a boost only inside its half-open window', () => {
    const boost = { startMs: day + 60 * MINUTE_MS, endMs: day + 120 * MINUTE_MS, multiplierMicros: 2_000_000n };
    const w = { dayStartMs: day, startMs: null, endMs: null, rewardBaseUnits: 1_440_000_000n, boosts: [boost] };
    assert.equal(minuteBudget(w, day / MINUTE_MS + 59), 1_000_000n);
    assert.equal(minuteBudget(w, day / MINUTE_MS + 60), 2_000_000n);
    assert.equal(minuteBudget(w, day / MINUTE_MS + 119), 2_000_000n);
    assert.equal(minuteBudget(w, day / MINUTE_MS + 120), 1_000_000n);
    assert.equal(boostAt([boost], boost.endMs), undefined);
    assert.equal(boostAt([boost], boost.startMs), boost);
  });
});
