import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { marketLockAccount } from '../../src/settlement/accounts.ts';
import { blockHash, GENESIS_HASH, transactionHash } from '../../src/settlement/embedded/hashes.ts';
import { PAYOUTS, splitPosting } from '../../src/settlement/embedded/postings.ts';
import { COLLATERAL, InsufficientBalanceError, LedgerStateError } from '../../src/settlement/types.ts';
import { Balances } from '../../src/engine/state/balances.ts';
import { Ledger, type LedgerTx, type SealedBlock } from '../../src/engine/state/ledger.ts';

const market = { conditionId: '0xaa', tokenId1: '11', tokenId2: '12' };

/** The engine's in-memory balances and ledger (src/engine/state/balances.ts, ledger.ts). */
describe('engine state: balances and ledger', () => {
  it('reserves only what is available and releases only what is locked, changing nothing when refused', () => {
    const balances = new Balances();
    balances.post([{ account: 'a', asset: COLLATERAL, balanceDelta: 10n, lockedDelta: 0n }]);
    balances.reserve('a', COLLATERAL, 7n);
    assert.throws(() => balances.reserve('a', COLLATERAL, 4n), (e: unknown) => e instanceof InsufficientBalanceError && e.available === 3n && e.needed === 4n);
    assert.throws(() => balances.release('a', COLLATERAL, 8n), LedgerStateError);
    assert.deepEqual(balances.get('a', COLLATERAL), { balance: 10n, locked: 7n });
    balances.release('a', COLLATERAL, 7n);
    assert.equal(balances.available('a', COLLATERAL), 10n);
    assert.throws(() => balances.reserve('a', COLLATERAL, 0n), LedgerStateError, 'amounts are positive');
  });

  it('applies a guarded posting whole or not at all, and a row back at zero leaves', () => {
    const balances = new Balances();
    const ledger = new Ledger(balances);
    ledger.record([{ kind: 'DEPOSIT', ref: 'x', legs: [{ account: 'a', asset: COLLATERAL, balanceDelta: 5n, lockedDelta: 0n, reason: 'DEPOSIT' }] }], 0);
    balances.reserve('a', COLLATERAL, 2n);
    assert.throws(() => ledger.record([splitPosting('a', market, 4n, 'split')], 0, { guarded: true }), InsufficientBalanceError, 'only 3 is available');
    assert.deepEqual([balances.get('a', '11'), ledger.nextSeq], [{ balance: 0n, locked: 0n }, 2n], 'nothing moved, no sequence taken');
    ledger.record([splitPosting('a', market, 3n, 'split')], 0, { guarded: true });
    assert.deepEqual(balances.get(marketLockAccount('0xaa'), COLLATERAL), { balance: 3n, locked: 0n });
    assert.deepEqual([balances.get('a', '11').balance, balances.get('a', '12').balance], [3n, 3n]);
    balances.release('a', COLLATERAL, 2n);
    ledger.record([{ kind: 'T', ref: 'y', legs: [{ account: 'a', asset: COLLATERAL, balanceDelta: -2n, lockedDelta: 0n, reason: 'OUT' }, { account: 'b', asset: COLLATERAL, balanceDelta: 2n, lockedDelta: 0n, reason: 'IN' }] }], 0, { guarded: true });
    assert.deepEqual([...balances.of('a').keys()].sort(), ['11', '12'], 'its collateral row left at zero');
  });

  it('numbers and hashes transactions from its own sequence, and seals them into a chain of blocks', () => {
    const ledger = new Ledger(new Balances());
    const seen: { txs: LedgerTx[]; blocks: SealedBlock[] } = { txs: [], blocks: [] };
    ledger.listen({ transaction: (tx) => seen.txs.push(tx), market: () => {}, block: (b) => seen.blocks.push(b) });
    const [first] = ledger.record([{ kind: 'DEPOSIT', ref: 'r', legs: [{ account: 'a', asset: COLLATERAL, balanceDelta: 5n, lockedDelta: 0n, reason: 'DEPOSIT' }] }], 1000);
    assert.equal(first, transactionHash({ seq: 1n, kind: 'DEPOSIT', ref: 'r', createdAtMs: 1000, entries: [{ account: 'a', asset: COLLATERAL, amount: 5n, reason: 'DEPOSIT' }] }));
    const block = ledger.seal(2000)!;
    assert.equal(block.hash, blockHash({ number: 1n, parentHash: GENESIS_HASH, sealedAtMs: 2000, txHashes: [first!] }));
    assert.equal(ledger.seal(3000), null, 'nothing left to seal');
    ledger.record([{ kind: 'DEPOSIT', ref: 's', legs: [{ account: 'a', asset: COLLATERAL, balanceDelta: 1n, lockedDelta: 0n, reason: 'DEPOSIT' }] }], 4000);
    assert.equal(ledger.seal(5000)!.parentHash, block.hash);
    assert.deepEqual([seen.txs.length, seen.blocks.length], [2, 2]);
  });

  it('resolves a market once', () => {
    const ledger = new Ledger(new Balances());
    ledger.resolve(market, PAYOUTS.TIE, 1);
    assert.deepEqual(ledger.markets.get('0xaa')?.payout, { payout1: 1, payout2: 1, den: 2 });
    assert.throws(() => ledger.resolve(market, PAYOUTS.YES, 2), LedgerStateError);
  });
});
