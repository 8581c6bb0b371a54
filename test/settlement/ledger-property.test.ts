import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createManualClock } from '../../src/clock.ts';
import { feeBaseUnits } from '../../src/core/book/fees.ts';
import { costBaseUnits } from '../../src/core/orders/reservation.ts';
import { tradePosting } from '../../src/settlement/embedded/postings.ts';
import {
  auditLedger, COLLATERAL, createEmbeddedSettlement, InsufficientBalanceError, LedgerStateError, lockKey,
  type MarketTokens, type Settlement, type TradeFill,
} from '../../src/settlement/index.ts';
import type { Db, Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';
import { inTransaction } from '../../src/settlement/embedded/retry.ts';

/** Sizes on a 0.01 tick are multiples of 100 base units; prices multiples of 10,000 micros. */
const size = fc.integer({ min: 1, max: 50 }).map((n) => BigInt(n * 100));
const price = fc.integer({ min: 1, max: 99 }).map((n) => n * 10_000);
const bps = fc.integer({ min: 0, max: 300 });
const party = fc.integer({ min: 0, max: 2 });
const outcome = fc.integer({ min: 0, max: 1 });
const amount = fc.integer({ min: 1, max: 5_000 }).map(BigInt);

type Op =
  | { op: 'credit'; w: number; amount: bigint }
  | { op: 'reserve'; w: number; asset: 'c' | 0 | 1; m: number; amount: bigint }
  | { op: 'releaseOldest' }
  | { op: 'split' | 'merge'; w: number; m: number; amount: bigint }
  | { op: 'mergeBatch'; w: number }
  | { op: 'transfer'; from: number; to: number; m: number; o: number; amount: bigint }
  | { op: 'trade'; kind: 'TRANSFER' | 'MINT' | 'MERGE'; a: number; b: number; m: number; o: number; price: number; size: bigint; takerBps: number; makerBps: number }
  | { op: 'resolve'; m: number; outcome: 'YES' | 'NO' | 'TIE' }
  | { op: 'redeem'; w: number; m: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('credit' as const), w: party, amount: fc.integer({ min: 1, max: 20_000 }).map(BigInt) }),
  fc.record({ op: fc.constant('reserve' as const), w: party, asset: fc.constantFrom('c' as const, 0 as const, 1 as const), m: outcome, amount }),
  fc.constant({ op: 'releaseOldest' as const }),
  fc.record({ op: fc.constantFrom('split' as const, 'merge' as const), w: party, m: outcome, amount }),
  fc.record({ op: fc.constant('mergeBatch' as const), w: party }),
  fc.record({ op: fc.constant('transfer' as const), from: party, to: party, m: outcome, o: outcome, amount }),
  fc.record({ op: fc.constant('trade' as const), kind: fc.constantFrom('TRANSFER' as const, 'MINT' as const, 'MERGE' as const), a: party, b: party, m: outcome, o: outcome, price, size, takerBps: bps, makerBps: bps }),
  fc.record({ op: fc.constant('resolve' as const), m: outcome, outcome: fc.constantFrom('YES' as const, 'NO' as const, 'TIE' as const) }),
  fc.record({ op: fc.constant('redeem' as const), w: party, m: outcome }),
);

describe('ledger properties', () => {
  let store: Store;
  let ledger: Settlement;
  /** Reservations that succeeded and are still held, across every run (the audit is global). */
  const held: Array<{ account: string; asset: string; amount: bigint }> = [];
  let run = 0;
  before(async () => {
    store = await openTestStore();
    ledger = createEmbeddedSettlement({ clock: createManualClock() });
  });
  after(async () => { await store.close(); });

  const expectedLocks = () => {
    const locks = new Map<string, bigint>();
    for (const r of held) locks.set(lockKey(r.account, r.asset), (locks.get(lockKey(r.account, r.asset)) ?? 0n) + r.amount);
    return locks;
  };

  /** The two parties' fills of one trade, priced so the legs are whole base units. */
  function fills(op: Extract<Op, { op: 'trade' }>, wallets: string[], market: MarketTokens): TradeFill {
    const tokens = [market.tokenId1, market.tokenId2];
    const complement = 1_000_000 - op.price;
    const takerFee = feeBaseUnits(op.takerBps, op.price, op.size);
    const makerFee = feeBaseUnits(op.makerBps, op.price, op.size);
    const base = { tradeId: `trade-${run}-${Math.random()}`, kind: op.kind, market, sizeBaseUnits: op.size };
    if (op.kind === 'TRANSFER') {
      return { ...base, taker: { account: wallets[op.a]!, side: 'SELL', tokenId: tokens[op.o]!, priceMicros: op.price, feeBaseUnits: takerFee }, maker: { account: wallets[op.b]!, side: 'BUY', tokenId: tokens[op.o]!, priceMicros: op.price, feeBaseUnits: makerFee } };
    }
    const side = op.kind === 'MINT' ? 'BUY' : 'SELL';
    return { ...base, taker: { account: wallets[op.a]!, side, tokenId: tokens[0]!, priceMicros: op.price, feeBaseUnits: takerFee }, maker: { account: wallets[op.b]!, side, tokenId: tokens[1]!, priceMicros: complement, feeBaseUnits: feeBaseUnits(op.makerBps, complement, op.size) } };
  }

  /** Runs one operation the way its caller would; false when the ledger refused it as it should. */
  async function apply(op: Op, wallets: string[], markets: MarketTokens[]): Promise<void> {
    const tokenOf = (m: number, o: number) => (o === 0 ? markets[m]!.tokenId1 : markets[m]!.tokenId2);
    const tx = <T>(work: (tx: Db) => Promise<T>) => inTransaction(store.db, work);
    switch (op.op) {
      case 'credit':
        await tx((t) => ledger.credit(t, { account: wallets[op.w]!, amount: op.amount, reason: 'FAUCET', ref: 'prop' }));
        return;
      case 'reserve': {
        const asset = op.asset === 'c' ? COLLATERAL : tokenOf(op.m, op.asset);
        await tx((t) => ledger.reserve(t, { account: wallets[op.w]!, asset, amount: op.amount, ref: 'prop' }));
        held.push({ account: wallets[op.w]!, asset, amount: op.amount });
        return;
      }
      case 'releaseOldest': {
        const r = held.shift();
        if (r) await tx((t) => ledger.release(t, { ...r, ref: 'prop' }));
        return;
      }
      case 'split':
      case 'merge':
        await tx((t) => ledger[op.op](t, { account: wallets[op.w]!, market: markets[op.m]!, amount: op.amount, ref: 'prop' }));
        return;
      case 'mergeBatch':
        // Both markets at once; what reservations hold must stay (the audit checks every lock).
        await tx((t) => ledger.mergeBatch(t, { account: wallets[op.w]!, markets, ref: 'prop' }));
        return;
      case 'transfer':
        if (op.from === op.to) return;
        await tx((t) => ledger.transfer(t, { from: wallets[op.from]!, to: wallets[op.to]!, asset: tokenOf(op.m, op.o), amount: op.amount, kind: 'GIFT', ref: 'prop' }));
        return;
      case 'trade': {
        if (op.a === op.b) return;
        const fill = fills(op, wallets, markets[op.m]!);
        // As the engine does: reserve what each side could spend, then settle, in one transaction.
        await tx(async (t) => {
          for (const p of [fill.taker, fill.maker]) {
            const need = p.side === 'BUY' ? costBaseUnits(p.priceMicros, fill.sizeBaseUnits) + p.feeBaseUnits : fill.sizeBaseUnits;
            await ledger.reserve(t, { account: p.account, asset: p.side === 'BUY' ? COLLATERAL : p.tokenId, amount: need, ref: fill.tradeId });
          }
          await ledger.settleTrades(t, [fill]);
        });
        return;
      }
      case 'resolve':
        await tx((t) => ledger.resolveMarket(t, markets[op.m]!, op.outcome));
        return;
      case 'redeem':
        await tx((t) => ledger.redeem(t, { account: wallets[op.w]!, market: markets[op.m]!, ref: 'prop' }));
        return;
    }
  }

  const expectedRefusal = (op: Op, error: unknown) =>
    error instanceof InsufficientBalanceError
    // Resolving twice, redeeming before resolution and a SELL fee above its proceeds are refused by design.
    || (error instanceof LedgerStateError && (op.op === 'resolve' || op.op === 'redeem' || op.op === 'trade'));

  it('random concurrent operations keep every invariant and create or destroy no value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 3, maxLength: 8 }), async (batches) => {
        run++;
        const wallets = [0, 1, 2].map((i) => `0x${(run * 10 + i).toString(16).padStart(40, '0')}`);
        const markets = [0, 1].map((i) => ({ conditionId: `0xprop${run}m${i}`, tokenId1: `${run}0${i}1`, tokenId2: `${run}0${i}2` }));
        for (const batch of batches) {
          // Operations of one batch run concurrently, as independent callers would.
          await Promise.all(batch.map(async (op) => {
            try {
              await apply(op, wallets, markets);
            } catch (error) {
              if (!expectedRefusal(op, error)) throw error;
            }
          }));
        }
        const report = await auditLedger(store.db, expectedLocks());
        assert.deepEqual(report.violations, []);
      }),
      { numRuns: 12 },
    );
    await inTransaction(store.db, (tx) => ledger.sealBlock(tx));
    assert.ok((await auditLedger(store.db, expectedLocks())).ok);
  });

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
