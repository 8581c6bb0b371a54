import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { tradePosting } from '../../src/settlement/embedded/postings.ts';
import { COLLATERAL, type TradeFill } from '../../src/settlement/index.ts';

/** Sizes on a 0.01 tick are multiples of 100 base units; prices multiples of 10,000 micros. */
const size = fc.integer({ min: 1, max: 50 }).map((n) => BigInt(n * 100));
const price = fc.integer({ min: 1, max: 99 }).map((n) => n * 10_000);
const bps = fc.integer({ min: 0, max: 300 });

/** The pure construction of ledger transactions (settlement/embedded/postings.ts). */
describe('ledger postings', () => {
  it('every valid trade posting conserves collateral and mints or burns only complete sets', () => {
    const market = { conditionId: '0xpure', tokenId1: '1', tokenId2: '2' };
    fc.assert(fc.property(fc.constantFrom('TRANSFER' as const, 'MINT' as const, 'MERGE' as const), price, size, bps, bps, (kind, p, s, tb, mb) => {
      const q = kind === 'TRANSFER' ? p : 1_000_000 - p;
      const side = kind === 'MINT' ? 'BUY' : 'SELL';
      const fill: TradeFill = {
        tradeId: 'x', kind, market, sizeBaseUnits: s,
        taker: { account: 'a', side: kind === 'TRANSFER' ? 'SELL' : side, tokenId: '1', priceMicros: p, feeBaseUnits: feeBaseUnits(tb, p, s) },
        maker: { account: 'b', side: kind === 'TRANSFER' ? 'BUY' : side, tokenId: kind === 'TRANSFER' ? '1' : '2', priceMicros: q, feeBaseUnits: feeBaseUnits(mb, q, s) },
      };
      const total = new Map<string, bigint>();
      for (const leg of tradePosting(fill).legs) total.set(leg.asset, (total.get(leg.asset) ?? 0n) + leg.balanceDelta);
      assert.equal(total.get(COLLATERAL) ?? 0n, 0n);
      const minted = kind === 'MINT' ? s : kind === 'MERGE' ? -s : 0n;
      assert.equal(total.get('1') ?? 0n, minted);
      assert.equal(total.get('2') ?? 0n, minted);
    }), { numRuns: 500 });
  });
});
