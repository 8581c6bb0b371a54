import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import { applyRecord } from '../../src/engine/state/apply.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { EngineState } from '../../src/engine/state/engine-state.ts';
import type { EngineTrade } from '../../src/engine/state/types.ts';
import { WorkloadCommands } from '../helpers/engine-workload.ts';

const START_MS = 1_764_000_000_000;

/**
 * PmxExchange's fee of one party (contracts/exchange/Fees.sol, Trading.sol `_fillOf`): the taker
 * pays its signed rate, a maker min(signed rate, the market's maker rate), nothing when it signed
 * 0; rate × min(cost, size − cost) / 10,000, with cost the maker's price × size.
 */
function chainFees(signedBps: number, marketMakerBps: number, makerPriceMicros: number, size: bigint): { maker: bigint; taker: bigint } {
  const cost = (BigInt(makerPriceMicros) * size) / 1_000_000n;
  const edge = cost < size - cost ? cost : size - cost;
  const makerRate = signedBps === 0 ? 0 : Math.min(signedBps, marketMakerBps);
  return { maker: (BigInt(makerRate) * edge) / 10_000n, taker: (BigInt(signedBps) * edge) / 10_000n };
}

/**
 * One market with these fee rates, a resting maker (user 0) and a taker (user 1) that crosses it:
 * the trade. `version`: the records go through the journal's text at that record version.
 */
function tradeAt(rates: { orderFeeRateBps: number; passiveOrderFeeRateBps: number }, kind: 'TRANSFER' | 'MINT' | 'MERGE', makerOutcome: 0 | 1, makerSide: 'BUY' | 'SELL', cents: number, units: number, version?: number): EngineTrade {
  const state = new EngineState();
  const workload = new WorkloadCommands();
  Object.assign(workload.markets[0]!, rates);
  let seq = 0n;
  const journaled = (commands: EngineCommand[]) => {
    if (version === undefined) return commands;
    const text = encodeRecord({ seq, atMs: 0, commands }).replace(/"v":\d+/, `"v":${version}`);
    return decodeRecord(text).commands;
  };
  const apply = (commands: EngineCommand[]) => applyRecord(state, { seq: ++seq, atMs: START_MS + Number(seq), commands: journaled(commands) });
  apply(workload.publish());
  const place = (user: number, outcome: 0 | 1, side: 'BUY' | 'SELL', price: number, type: 'GTC' | 'FAK'): EngineCommand =>
    workload.toCommands({ kind: 'place', user, market: 0, outcome, side, cents: price, units, type, postOnly: false, expiresInSec: 0 }, [], START_MS / 1000).commands[0]!;
  const side = kind === 'TRANSFER' ? makerSide : kind === 'MINT' ? 'BUY' : 'SELL';
  const takerOutcome = kind === 'TRANSFER' ? makerOutcome : ((1 - makerOutcome) as 0 | 1);
  const takerSide = kind === 'TRANSFER' ? (side === 'BUY' ? 'SELL' : 'BUY') : side;
  apply([place(0, makerOutcome, side, cents, 'GTC')]);
  const applied = apply([place(1, takerOutcome, takerSide, takerSide === 'BUY' ? 99 : 1, 'FAK')]);
  const trades = applied.effects.announcements.tradeUpdates;
  assert.equal(trades.length, 1);
  assert.equal(trades[0]!.kind, kind);
  return trades[0]!;
}

describe('maker fees against the signed fee rate (EXTENSIONS.md section 11, contracts/README.md "Fees")', () => {
  it('a maker pays at most the fee rate it signed: the ledger charges what PmxExchange charges, for every pair of market rates', () => {
    const bps = fc.oneof(fc.constantFrom(0, 1, 5, 20, 100, 10_000), fc.integer({ min: 0, max: 10_000 }));
    fc.assert(fc.property(bps, bps, fc.constantFrom('TRANSFER', 'MINT', 'MERGE' as const), fc.constantFrom(0, 1 as const), fc.constantFrom('BUY', 'SELL' as const), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 20 }),
      (orderFeeRateBps, passiveOrderFeeRateBps, kind, outcome, side, cents, units) => {
        const trade = tradeAt({ orderFeeRateBps, passiveOrderFeeRateBps }, kind, outcome, side, cents, units);
        const chain = chainFees(orderFeeRateBps, passiveOrderFeeRateBps, trade.maker.priceMicros, trade.sizeBaseUnits);
        assert.deepEqual({ maker: trade.maker.feeBaseUnits, taker: trade.taker.feeBaseUnits }, chain);
      }), { numRuns: 200 });
  });

  it('a market whose maker rate is above its taker rate (0.5% against 0.2%): a maker selling 10 at 0.40 pays 0.2% of 4, as it signed', () => {
    const trade = tradeAt({ orderFeeRateBps: 20, passiveOrderFeeRateBps: 50 }, 'TRANSFER', 0, 'SELL', 40, 10);
    assert.equal(trade.maker.feeBaseUnits, 8_000n);
    assert.equal(trade.taker.feeBaseUnits, 8_000n);
  });

  it('a journal record of version 3 or before replays its orders paying the market maker rate, as they were charged; one of version 4 pays at most the signed rate', () => {
    const rates = { orderFeeRateBps: 20, passiveOrderFeeRateBps: 50 };
    for (const version of [2, 3]) assert.equal(tradeAt(rates, 'TRANSFER', 0, 'SELL', 40, 10, version).maker.feeBaseUnits, 20_000n);
    assert.equal(tradeAt(rates, 'TRANSFER', 0, 'SELL', 40, 10, 4).maker.feeBaseUnits, 8_000n);
  });
});
