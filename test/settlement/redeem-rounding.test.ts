import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeRecord, encodeRecord } from '../../src/engine/journal/record-codec.ts';
import type { EngineCommand } from '../../src/engine/state/commands.ts';
import { PAYOUTS, redeemPayout } from '../../src/settlement/embedded/postings.ts';

/** ConditionalTokens' `redeemPositions`: each position's payout rounded down on its own. */
const conditionalTokensPays = (numerators: [number, number], den: number, a1: bigint, a2: bigint) =>
  (BigInt(numerators[0]) * a1) / BigInt(den) + (BigInt(numerators[1]) * a2) / BigInt(den);

const roundTrip = (command: EngineCommand) => decodeRecord(encodeRecord({ seq: 1n, atMs: 0, commands: [command] })).commands[0];

/** What a redeem pays in the ledger (settlement/embedded/postings.ts redeemPayout) against what the chain pays. */
describe('redeem payouts', () => {
  it('pay what ConditionalTokens pays for every outcome and amount, so the ledger never shows a unit the wallet lacks', () => {
    // 3 of each token on a TIE: the chain pays 1 + 1; rounding the sum paid 3.
    assert.equal(redeemPayout(PAYOUTS.TIE, 3n, 3n), 2n);
    assert.equal(redeemPayout(PAYOUTS.TIE, 3n, 3n, 'sum'), 3n, 'the rounding of the redeems journaled before');
    fc.assert(fc.property(fc.constantFrom('YES', 'NO', 'TIE' as const), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (outcome, a1, a2) => {
      const p = PAYOUTS[outcome];
      assert.equal(redeemPayout(p, a1, a2), conditionalTokensPays([p.payout1, p.payout2], p.den, a1, a2));
    }), { numRuns: 300 });
  });

  it('a new record\'s redeem rounds per token; one of a record written before (version 2, or none) replays rounding the sum', () => {
    const redeem: EngineCommand = { kind: 'redeem', userId: 'u', account: 'wallet', marketIds: ['m'] };
    assert.deepEqual(roundTrip(redeem), redeem);
    assert.deepEqual(roundTrip({ ...redeem, chainTxHash: '0xabc' }), { ...redeem, chainTxHash: '0xabc' });
    assert.equal(JSON.parse(encodeRecord({ seq: 1n, atMs: 0, commands: [redeem] })).v, 5);
    // The text an engine wrote before per-token rounding, with and without a chain's transaction.
    const before = (version: { v?: number }, fields: unknown[]) => decodeRecord(JSON.stringify({ seq: '1', at: 0, ...version, c: [['redeem', 'u', 'wallet', ['m'], ...fields]] })).commands[0];
    assert.deepEqual(before({ v: 2 }, []), { ...redeem, rounding: 'sum' });
    assert.deepEqual(before({ v: 2 }, ['0xabc']), { ...redeem, chainTxHash: '0xabc', rounding: 'sum' });
    assert.deepEqual(before({}, []), { ...redeem, rounding: 'sum' });
    assert.deepEqual(before({ v: 3 }, []), redeem, 'version 3 rounded per token already');
    assert.deepEqual(before({ v: 4 }, []), redeem, 'and so did version 4');
    // A build that knows no version 6 refuses it rather than guess how its commands apply.
    assert.throws(() => before({ v: 6 }, []), /version 6, which this build does not read/);
  });
});
