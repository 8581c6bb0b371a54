import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { applyPositionEvent, completeSetShare, EMPTY_POSITION, foldPosition, notional, PositionError, type PositionEvent, type PositionState } from '../../src/core/positions/position.ts';
import { pnlPoints, rangeWindow } from '../../src/core/positions/pnl-history.ts';
import { totalPnl, valuePosition } from '../../src/core/positions/valuation.ts';

const M = 1_000_000n;
const price = fc.integer({ min: 1, max: 99 }).map((c) => BigInt(c) * 10_000n);
const size = fc.integer({ min: 1, max: 500 }).map((n) => BigInt(n) * 10_000n);
const fee = fc.integer({ min: 0, max: 5_000 }).map(BigInt);

/** A random event stream that never disposes of more than is held (the ledger guarantees that). */
const streams = fc.array(fc.tuple(fc.constantFrom('BUY', 'SELL', 'SPLIT', 'MERGE', 'REDEEM'), price, size, fee, fc.constantFrom<0 | 1>(0, 1), fc.integer({ min: 1, max: 100 })), { maxLength: 40 })
  .map((raw) => {
    let held = 0n;
    const events: PositionEvent[] = [];
    for (const [type, p, s, f, outcome, percent] of raw) {
      if (type === 'BUY') events.push({ type, amount: s, priceMicros: p, feeBaseUnits: f });
      if (type === 'SPLIT') events.push({ type, amount: s, outcomeIndex: outcome });
      if (type === 'BUY' || type === 'SPLIT') { held += s; continue; }
      const amount = (held * BigInt(percent)) / 100n;
      if (amount === 0n) continue;
      held -= amount;
      if (type === 'SELL') events.push({ type, amount, priceMicros: p, feeBaseUnits: f > notional(p, amount) ? 0n : f });
      if (type === 'MERGE') events.push({ type, amount, outcomeIndex: outcome });
      if (type === 'REDEEM') events.push({ type, amount, proceeds: (amount * p) / M });
    }
    return events;
  });

/**
 * The reference: exact rational average cost (numerator over the amount), no rounding at all, and
 * the plain sums of what was paid and received.
 */
function reference(events: PositionEvent[]) {
  let amount = 0n, basisNum = 0n, basisDen = 1n, paid = 0n, received = 0n, partials = 0;
  for (const e of events) {
    const cash = e.type === 'BUY' ? notional(e.priceMicros, e.amount) + e.feeBaseUnits
      : e.type === 'SELL' ? notional(e.priceMicros, e.amount) - e.feeBaseUnits
      : e.type === 'REDEEM' ? e.proceeds : completeSetShare(e.amount, e.outcomeIndex);
    if (e.type === 'BUY' || e.type === 'SPLIT') {
      basisNum += cash * basisDen; amount += e.amount; paid += cash;
    } else {
      if (e.amount < amount) partials++;
      basisNum = amount === e.amount ? 0n : basisNum * (amount - e.amount); basisDen = amount === e.amount ? 1n : basisDen * amount;
      amount -= e.amount; received += cash;
    }
  }
  return { amount, basisNum, basisDen, paid, received, partials };
}

describe('positions: average cost and realised P&L', () => {
  it('matches a hand calculation', () => {
    // buy 100 @ 0.40 (fee 0.2), buy 50 @ 0.70, sell 75 @ 0.80 (fee 0.1), split 20, merge 95
    const s = foldPosition([
      { type: 'BUY', amount: 100_000_000n, priceMicros: 400_000n, feeBaseUnits: 200_000n },
      { type: 'BUY', amount: 50_000_000n, priceMicros: 700_000n, feeBaseUnits: 0n },
      { type: 'SELL', amount: 75_000_000n, priceMicros: 800_000n, feeBaseUnits: 100_000n },
    ]);
    // basis 40.2 + 35 = 75.2 for 150; half of it leaves: 37.6; proceeds 59.9 → realised 22.3
    assert.deepEqual([s.amount, s.costBasis, s.realizedPnl], [75_000_000n, 37_600_000n, 22_300_000n]);
    const t = foldPosition([{ type: 'SPLIT', amount: 20_000_000n, outcomeIndex: 0 }, { type: 'MERGE', amount: 95_000_000n, outcomeIndex: 0 }], s);
    // the split adds 20 at 0.5 (10); the merge closes at 0.5 each: 47.5 − 47.6 = −0.1
    assert.deepEqual([t.amount, t.costBasis, t.realizedPnl], [0n, 0n, 22_200_000n]);
    assert.equal(valuePosition(s, 600_000n).acquisitionPriceMicros, 501_333n);
    // initial is amount × acquisitionPrice (EXTENSIONS.md 11): 75 × 0.501333, not the exact basis 37.6.
    assert.deepEqual(valuePosition(s, 600_000n), { acquisitionPriceMicros: 501_333n, current: 45_000_000n, initial: 37_599_975n, return: 7_400_025n });
    assert.equal(totalPnl(s, 600_000n), 22_300_000n + 45_000_000n - 37_600_000n);
  });

  it('refuses to dispose of more than is held, and empty events', () => {
    assert.throws(() => applyPositionEvent(EMPTY_POSITION, { type: 'SELL', amount: 1n, priceMicros: 1n, feeBaseUnits: 0n }), PositionError);
    assert.throws(() => applyPositionEvent(EMPTY_POSITION, { type: 'SPLIT', amount: 0n, outcomeIndex: 0 }), PositionError);
  });

  it('gives both halves of an odd complete set their share, summing to the collateral', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (a) => {
      assert.equal(completeSetShare(a, 0) + completeSetShare(a, 1), a);
    }));
  });

  it('agrees with the exact rational reference model', () => {
    fc.assert(fc.property(streams, (events) => {
      const s: PositionState = foldPosition(events);
      const ref = reference(events);
      assert.equal(s.amount, ref.amount);
      // every realised cent is accounted for: P&L = received − (paid − what the held tokens still cost)
      assert.equal(s.realizedPnl, ref.received - (ref.paid - s.costBasis));
      // the basis is the exact average cost, less at most one base unit per partial disposal
      const exactFloor = ref.basisNum / ref.basisDen;
      assert.ok(s.costBasis <= exactFloor + BigInt(ref.partials) && s.costBasis >= exactFloor - BigInt(ref.partials), `${s.costBasis} vs ${exactFloor}`);
      if (s.amount === 0n) {
        assert.equal(s.costBasis, 0n);
        assert.equal(s.realizedPnl, ref.received - ref.paid);
      }
      assert.equal(s.acquiredAmount - s.disposedAmount, s.amount);
      // initial = amount × acquisitionPrice (both as shown), under the basis by less than a base unit per token
      const value = valuePosition(s, 500_000n);
      assert.equal(value.initial, (s.amount * value.acquisitionPriceMicros) / M);
      assert.ok(value.initial <= s.costBasis && s.costBasis - value.initial <= s.amount / M + 1n, `${value.initial} vs ${s.costBasis}`);
      assert.equal(value.return, value.current - value.initial);
    }), { numRuns: 500 });
  });

  it('sums every holder\'s P&L plus the fees to zero over a closed market', () => {
    const ops = fc.array(fc.tuple(fc.constantFrom('TRANSFER', 'MINT', 'MERGE', 'SPLIT', 'UNSPLIT'), fc.nat(3), fc.nat(3), fc.constantFrom<0 | 1>(0, 1), price, size), { maxLength: 60 });
    fc.assert(fc.property(ops, fc.constantFrom('YES', 'NO', 'TIE'), fc.nat(300), (list, outcome, bps) => {
      const users = 4;
      const pos = Array.from({ length: users }, () => [EMPTY_POSITION, EMPTY_POSITION] as PositionState[]);
      let fees = 0n;
      const apply = (u: number, o: 0 | 1, e: PositionEvent) => { pos[u]![o] = applyPositionEvent(pos[u]![o]!, e); };
      const feeOn = (p: bigint, s: bigint) => feeBaseUnits(bps, Number(p), s);
      for (const [kind, a, b, o, p, s] of list) {
        const other = (1 - o) as 0 | 1;
        if (kind === 'SPLIT') { apply(a, 0, { type: 'SPLIT', amount: s, outcomeIndex: 0 }); apply(a, 1, { type: 'SPLIT', amount: s, outcomeIndex: 1 }); continue; }
        if (kind === 'MINT') {
          const fa = feeOn(p, s), fb = feeOn(M - p, s);
          apply(a, o, { type: 'BUY', amount: s, priceMicros: p, feeBaseUnits: fa });
          apply(b, other, { type: 'BUY', amount: s, priceMicros: M - p, feeBaseUnits: fb });
          fees += fa + fb;
          continue;
        }
        if (kind === 'UNSPLIT') {
          const m = pos[a]![0]!.amount < pos[a]![1]!.amount ? pos[a]![0]!.amount : pos[a]![1]!.amount;
          if (m > 0n) { apply(a, 0, { type: 'MERGE', amount: m, outcomeIndex: 0 }); apply(a, 1, { type: 'MERGE', amount: m, outcomeIndex: 1 }); }
          continue;
        }
        if (kind === 'MERGE') {
          const m = pos[a]![o]!.amount < pos[b]![other]!.amount ? pos[a]![o]!.amount : pos[b]![other]!.amount;
          if (a === b || m === 0n || m % 10_000n !== 0n) continue;
          const fa = feeOn(p, m), fb = feeOn(M - p, m);
          apply(a, o, { type: 'SELL', amount: m, priceMicros: p, feeBaseUnits: fa });
          apply(b, other, { type: 'SELL', amount: m, priceMicros: M - p, feeBaseUnits: fb });
          fees += fa + fb;
          continue;
        }
        const m = pos[b]![o]!.amount < s ? pos[b]![o]!.amount : s;
        if (a === b || m === 0n || m % 10_000n !== 0n) continue;
        const fa = feeOn(p, m), fb = feeOn(p, m);
        apply(a, o, { type: 'BUY', amount: m, priceMicros: p, feeBaseUnits: fa });
        apply(b, o, { type: 'SELL', amount: m, priceMicros: p, feeBaseUnits: fb });
        fees += fa + fb;
      }
      // resolution: every holder redeems both tokens in one burn, the payout split per token
      const [p1, p2] = outcome === 'YES' ? [1n, 0n] : outcome === 'NO' ? [0n, 1n] : [1n, 1n];
      const den = outcome === 'TIE' ? 2n : 1n;
      for (let u = 0; u < users; u++) {
        const [a1, a2] = [pos[u]![0]!.amount, pos[u]![1]!.amount];
        const paid = (p1 * a1 + p2 * a2) / den;
        const share1 = (p1 * a1) / den;
        if (a1 > 0n) apply(u, 0, { type: 'REDEEM', amount: a1, proceeds: share1 });
        if (a2 > 0n) apply(u, 1, { type: 'REDEEM', amount: a2, proceeds: paid - share1 });
      }
      const pnl = pos.flat().reduce((sum, s) => sum + s.realizedPnl, 0n);
      // tokens minted by splits pay out exactly what they cost, so the only leak is the fees
      assert.equal(pnl + fees, 0n);
    }), { numRuns: 300 });
  });
});

describe('positions: P&L history points', () => {
  const H = 3_600_000;
  const now = Date.UTC(2026, 5, 15, 12, 30);

  it('starts a bounded range with what was realised before it, then one point per bucket, then the live total', () => {
    const series = [{ hourMs: now - 5 * H - 30 * 60_000, realized: 2n }, { hourMs: now - 2 * H - 30 * 60_000, realized: -1n }];
    assert.deepEqual(pnlPoints(series, 10n, rangeWindow('1D', now), now, 15n), [
      { time: (now - 24 * H) / 1000, value: 10n },
      { time: (now - 5 * H - 30 * 60_000) / 1000, value: 12n },
      { time: (now - 2 * H - 30 * 60_000) / 1000, value: 11n },
      { time: now / 1000, value: 15n },
    ]);
  });

  it('merges hours into days for long ranges, and ALL starts at the first bucket', () => {
    const series = [{ hourMs: Date.UTC(2026, 5, 1, 3), realized: 1n }, { hourMs: Date.UTC(2026, 5, 1, 9), realized: 2n }, { hourMs: Date.UTC(2026, 5, 3, 1), realized: 4n }];
    assert.deepEqual(pnlPoints(series, 0n, rangeWindow('ALL', now), now, 7n), [
      { time: Date.UTC(2026, 5, 1) / 1000, value: 3n },
      { time: Date.UTC(2026, 5, 3) / 1000, value: 7n },
      { time: now / 1000, value: 7n },
    ]);
    assert.equal(rangeWindow('YTD', now).startMs, Date.UTC(2026, 0, 1));
    assert.deepEqual(pnlPoints([], 0n, rangeWindow('ALL', now), now, 0n), [{ time: now / 1000, value: 0n }]);
  });
});
