// What the chain says became of a payment's recorded versions (chain/until-mined.ts `fateOf`), over
// a record that spans attempts, read from a chain that answers as told.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hex, TransactionReceipt } from 'viem';
import { fateOf, type SignedTransaction, type VersionsChain } from '../../src/chain/until-mined.ts';

const version = (id: number, nonce: number): SignedTransaction => ({ hash: `0x${id.toString(16).padStart(64, '0')}`, nonce, raw: '0x' });

/** A chain whose key has `mined` transactions mined, and a receipt for each of `receipts`. */
function chainWith(mined: number, receipts: Record<Hex, 'success' | 'reverted'> = {}): VersionsChain {
  return {
    minedNonce: async () => mined,
    receipt: async (hash) => (receipts[hash] ? ({ transactionHash: hash, status: receipts[hash] } as TransactionReceipt) : undefined),
    sendRaw: async () => {},
    marketFees: async () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    resign: async (tx) => tx,
    flush: undefined,
  };
}

describe('fateOf over a record of several attempts', () => {
  const first = version(1, 5);
  const second = version(2, 6);
  // A replacement of the first attempt, recorded by a payer still waiting on it after the second was recorded.
  const lateReplacement = version(3, 5);

  it('judges the latest attempt by its nonce, not by the order recorded: alive while its nonce is free', async () => {
    assert.deepEqual(await fateOf(chainWith(6), [first, second, lateReplacement]), { kind: 'unsent' });
    assert.deepEqual(await fateOf(chainWith(7), [first, second, lateReplacement]), { kind: 'superseded' });
  });

  it('answers a success anywhere, before a later attempt, and a revert only of the latest attempt', async () => {
    const paidFirst = await fateOf(chainWith(7, { [first.hash]: 'success' }), [first, second]);
    assert.equal(paidFirst.kind === 'mined' && paidFirst.receipt.transactionHash, first.hash);
    assert.deepEqual(await fateOf(chainWith(6, { [first.hash]: 'reverted' }), [first, second]), { kind: 'unsent' }, 'the first attempt reverted; the second can still be mined');
    const revertedLatest = await fateOf(chainWith(7, { [first.hash]: 'reverted', [second.hash]: 'reverted' }), [first, second]);
    assert.equal(revertedLatest.kind === 'mined' && revertedLatest.receipt.transactionHash, second.hash);
  });
});
