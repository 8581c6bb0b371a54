import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createManualClock } from '../../src/clock.ts';
import {
  auditLedger, COLLATERAL, createEmbeddedSettlement, InsufficientBalanceError, LedgerStateError, lockKey, marketFeeAccount, marketLockAccount,
  type MarketTokens, type Settlement, type TradeFill,
} from '../../src/settlement/index.ts';
import type { Db, Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';
import { inTransaction } from '../../src/settlement/embedded/retry.ts';
import { appendBlock, nextTransactionSeqs, writePostings } from '../../src/store/ledger-journal-repository.ts';

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
let marketCounter = 0;
const newMarket = (): MarketTokens => {
  marketCounter++;
  return { conditionId: `0xc${marketCounter}`, tokenId1: `${marketCounter}001`, tokenId2: `${marketCounter}002` };
};

describe('embedded settlement ledger', () => {
  let store: Store;
  let ledger: Settlement;
  before(async () => {
    store = await openTestStore();
    ledger = createEmbeddedSettlement({ clock: createManualClock(1_700_000_000_000) });
  });
  after(async () => { await store.close(); });

  const run = <T>(work: (tx: Db) => Promise<T>) => inTransaction(store.db, work);
  const balances = (account: string) => ledger.balances(store.db, account);

  it('credits, reserves and releases collateral, refusing what is not available', async () => {
    const a = wallet(1);
    const credited = await run((tx) => ledger.credit(tx, { account: a, amount: 100n, reason: 'DEPOSIT', ref: 'test' }));
    assert.equal(credited.balance, 100n);
    assert.match(credited.txHash, /^0x[0-9a-f]{64}$/);
    await run((tx) => ledger.reserve(tx, { account: a, asset: COLLATERAL, amount: 60n, ref: 'order-1' }));
    assert.deepEqual((await balances(a)).collateral, { balance: 100n, locked: 60n, available: 40n });
    await assert.rejects(run((tx) => ledger.reserve(tx, { account: a, asset: COLLATERAL, amount: 41n, ref: 'order-2' })), (error: unknown) => {
      assert.ok(error instanceof InsufficientBalanceError);
      assert.equal(error.available, 40n);
      assert.equal(error.needed, 41n);
      return true;
    });
    await assert.rejects(run((tx) => ledger.release(tx, { account: a, asset: COLLATERAL, amount: 61n, ref: 'order-1' })), LedgerStateError);
    await run((tx) => ledger.release(tx, { account: a, asset: COLLATERAL, amount: 60n, ref: 'order-1' }));
    assert.deepEqual((await balances(a)).collateral, { balance: 100n, locked: 0n, available: 100n });
    await assert.rejects(run((tx) => ledger.reserve(tx, { account: wallet(999), asset: COLLATERAL, amount: 1n, ref: 'x' })), InsufficientBalanceError);
  });

  it('splits and merges complete sets through the market lock, and transfers', async () => {
    const a = wallet(2);
    const b = wallet(3);
    const m = newMarket();
    await run((tx) => ledger.credit(tx, { account: a, amount: 50n, reason: 'FAUCET', ref: 'test' }));
    await run((tx) => ledger.split(tx, { account: a, market: m, amount: 30n, ref: 'split' }));
    await assert.rejects(run((tx) => ledger.split(tx, { account: a, market: m, amount: 21n, ref: 'split' })), InsufficientBalanceError);
    const after = await balances(a);
    assert.equal(after.collateral.balance, 20n);
    assert.deepEqual(after.tokens.map((t) => [t.tokenId, t.balance]).sort(), [[m.tokenId1, 30n], [m.tokenId2, 30n]]);
    await run((tx) => ledger.transfer(tx, { from: a, to: b, asset: m.tokenId1, amount: 10n, kind: 'GIFT', ref: 't' }));
    await assert.rejects(run((tx) => ledger.merge(tx, { account: a, market: m, amount: 21n, ref: 'merge' })), InsufficientBalanceError);
    assert.equal((await balances(a)).collateral.balance, 20n, 'a refused merge changes nothing');
    await run((tx) => ledger.merge(tx, { account: a, market: m, amount: 20n, ref: 'merge' }));
    assert.equal((await balances(a)).collateral.balance, 40n);
    assert.equal((await balances(marketLockAccount(m.conditionId))).collateral.balance, 10n);
    assert.ok((await auditLedger(store.db)).ok);
  });

  it('settles TRANSFER, MINT and MERGE trades with fees, one transaction each', async () => {
    const [buyer, seller] = [wallet(10), wallet(11)];
    const m = newMarket();
    await run(async (tx) => {
      await ledger.credit(tx, { account: buyer, amount: 1_000_000n, reason: 'DEPOSIT', ref: 't' });
      await ledger.credit(tx, { account: seller, amount: 1_000_000n, reason: 'DEPOSIT', ref: 't' });
    });
    // MINT: buyer takes token1 at 0.6, seller (as a buyer of token2) rests at 0.4; size 100.
    const mint: TradeFill = {
      tradeId: 't-mint', kind: 'MINT', market: m, sizeBaseUnits: 100n,
      taker: { account: buyer, side: 'BUY', tokenId: m.tokenId1, priceMicros: 600_000, feeBaseUnits: 2n },
      maker: { account: seller, side: 'BUY', tokenId: m.tokenId2, priceMicros: 400_000, feeBaseUnits: 1n },
    };
    await run(async (tx) => {
      await ledger.reserve(tx, { account: buyer, asset: COLLATERAL, amount: 62n, ref: 'o1' });
      await ledger.reserve(tx, { account: seller, asset: COLLATERAL, amount: 41n, ref: 'o2' });
      const [result] = await ledger.settleTrades(tx, [mint]);
      assert.equal(result!.tradeId, 't-mint');
    });
    assert.deepEqual((await balances(buyer)).collateral, { balance: 999_938n, locked: 0n, available: 999_938n });
    assert.equal((await balances(marketLockAccount(m.conditionId))).collateral.balance, 100n);
    assert.equal((await balances(marketFeeAccount(m.conditionId))).collateral.balance, 3n);
    // TRANSFER: buyer sells 40 token1 to seller at 0.5; then MERGE: both sell their sets back.
    const transfer: TradeFill = {
      tradeId: 't-transfer', kind: 'TRANSFER', market: m, sizeBaseUnits: 40n,
      taker: { account: buyer, side: 'SELL', tokenId: m.tokenId1, priceMicros: 500_000, feeBaseUnits: 1n },
      maker: { account: seller, side: 'BUY', tokenId: m.tokenId1, priceMicros: 500_000, feeBaseUnits: 0n },
    };
    const merge: TradeFill = {
      tradeId: 't-merge', kind: 'MERGE', market: m, sizeBaseUnits: 40n,
      taker: { account: seller, side: 'SELL', tokenId: m.tokenId1, priceMicros: 500_000, feeBaseUnits: 0n },
      maker: { account: seller, side: 'SELL', tokenId: m.tokenId2, priceMicros: 500_000, feeBaseUnits: 0n },
    };
    const [transferred] = await run(async (tx) => {
      await ledger.reserve(tx, { account: buyer, asset: m.tokenId1, amount: 40n, ref: 'o3' });
      await ledger.reserve(tx, { account: seller, asset: COLLATERAL, amount: 20n, ref: 'o4' });
      return ledger.settleTrades(tx, [transfer]);
    });
    const [merged] = await run(async (tx) => {
      await ledger.reserve(tx, { account: seller, asset: m.tokenId1, amount: 40n, ref: 'o5' });
      await ledger.reserve(tx, { account: seller, asset: m.tokenId2, amount: 40n, ref: 'o6' });
      return ledger.settleTrades(tx, [merge]);
    });
    assert.notEqual(transferred!.txHash, merged!.txHash);
    assert.deepEqual((await balances(seller)).collateral, { balance: 999_979n, locked: 0n, available: 999_979n });
    assert.equal((await balances(marketLockAccount(m.conditionId))).collateral.balance, 60n);
    const report = await auditLedger(store.db);
    assert.deepEqual(report.violations, []);
  });

  it('refuses trades whose legs would not conserve value', async () => {
    const m = newMarket();
    const bad: TradeFill = {
      tradeId: 'bad', kind: 'MINT', market: m, sizeBaseUnits: 100n,
      taker: { account: wallet(20), side: 'BUY', tokenId: m.tokenId1, priceMicros: 600_000, feeBaseUnits: 0n },
      maker: { account: wallet(21), side: 'BUY', tokenId: m.tokenId2, priceMicros: 300_000, feeBaseUnits: 0n },
    };
    await assert.rejects(run((tx) => ledger.settleTrades(tx, [bad])), LedgerStateError);
  });

  it('redeems a resolved market by its payout vector', async () => {
    const a = wallet(30);
    const yes = newMarket();
    const tie = newMarket();
    await run(async (tx) => {
      await ledger.credit(tx, { account: a, amount: 100n, reason: 'DEPOSIT', ref: 't' });
      await ledger.split(tx, { account: a, market: yes, amount: 40n, ref: 's' });
      await ledger.split(tx, { account: a, market: tie, amount: 7n, ref: 's' });
    });
    await assert.rejects(run((tx) => ledger.redeem(tx, { account: a, market: yes, ref: 'r' })), LedgerStateError);
    await run((tx) => ledger.resolveMarket(tx, yes, 'YES'));
    await run((tx) => ledger.resolveMarket(tx, tie, 'TIE'));
    await assert.rejects(run((tx) => ledger.resolveMarket(tx, yes, 'NO')), LedgerStateError);
    const redeemed = await run((tx) => ledger.redeem(tx, { account: a, market: yes, ref: 'r' }));
    assert.equal(redeemed!.payoutBaseUnits, 40n);
    assert.deepEqual(redeemed!.burned, [40n, 40n]);
    assert.equal(await run((tx) => ledger.redeem(tx, { account: a, market: yes, ref: 'r' })), null);
    const tied = await run((tx) => ledger.redeem(tx, { account: a, market: tie, ref: 'r' }));
    assert.equal(tied!.payoutBaseUnits, 7n);
    assert.equal((await balances(a)).collateral.balance, 100n);
    assert.ok((await auditLedger(store.db)).ok);
  });

  it('seals transactions into hash-chained blocks that the audit verifies', async () => {
    const first = await run((tx) => ledger.sealBlock(tx));
    assert.ok(first && first.txHashes.length > 0);
    assert.equal(await run((tx) => ledger.sealBlock(tx)), null);
    await run((tx) => ledger.credit(tx, { account: wallet(40), amount: 5n, reason: 'DEPOSIT', ref: 't' }));
    const second = await run((tx) => ledger.sealBlock(tx));
    assert.equal(second!.parentHash, first.hash);
    assert.equal(second!.number, first.number + 1n);
    assert.ok((await auditLedger(store.db)).ok);
  });

  it('writes postings in one statement that writes everything or nothing, with or without a transaction', async () => {
    const payer = wallet(60);
    const m = newMarket();
    await run((tx) => ledger.credit(tx, { account: payer, amount: 10n, reason: 'DEPOSIT', ref: 't' }));
    const counts = async () => (await sql<{ txs: string; markets: string }>`
      SELECT (SELECT count(*) FROM ledger_transactions)::text AS txs, (SELECT count(*) FROM ledger_markets)::text AS markets`.execute(store.db)).rows[0];
    const before = await counts();
    // The payer's row is updated and the payee's created in the same statement: the overdraw of
    // the first (the CHECK) must also undo the second, the transaction and the market.
    const overdraw = { seq: 0n, txHash: '0xoverdraw', kind: 'TEST', ref: 'overdraw', createdAt: new Date() };
    const [seq] = await nextTransactionSeqs(store.db, 1);
    await assert.rejects(writePostings(store.db, {
      markets: [m],
      txs: [{ ...overdraw, seq: seq! }],
      entries: [{ txSeq: seq!, idx: 0, account: payer, asset: COLLATERAL, amount: -11n, reason: 'OUT' }, { txSeq: seq!, idx: 1, account: wallet(61), asset: COLLATERAL, amount: 11n, reason: 'IN' }],
      changes: [{ account: payer, asset: COLLATERAL, balance: -11n, locked: 0n }, { account: wallet(61), asset: COLLATERAL, balance: 11n, locked: 0n }],
    }), /ledger_balances_not_overdrawn/);
    assert.deepEqual(await counts(), before);
    assert.equal((await balances(payer)).collateral.balance, 10n);
    assert.deepEqual((await balances(wallet(61))).tokens, []);
    assert.equal((await balances(wallet(61))).collateral.balance, 0n);
  });

  it('credits one new account from many concurrent transactions, each adding its amount', async () => {
    const fresh = wallet(62);
    await Promise.all(Array.from({ length: 8 }, (_, i) => run((tx) => ledger.credit(tx, { account: fresh, amount: BigInt(i + 1), reason: 'DEPOSIT', ref: `c${i}` }))));
    assert.equal((await balances(fresh)).collateral.balance, 36n);
    assert.ok((await auditLedger(store.db)).ok);
  });

  it('appends a block only over its parent, sealing transactions no block holds', async () => {
    const sealed = await run((tx) => ledger.sealBlock(tx));
    assert.ok(sealed);
    const [seq] = (await sql<{ seq: string }>`SELECT seq::text AS seq FROM ledger_transactions WHERE block_number IS NOT NULL ORDER BY seq DESC LIMIT 1`.execute(store.db)).rows;
    const again = { number: sealed.number + 1n, hash: '0xagain', parentHash: sealed.hash, sealedAt: new Date(), seqs: [BigInt(seq!.seq)] };
    await assert.rejects(appendBlock(store.db, again), /sealed 0 of 1 transactions/);
    await run((tx) => ledger.credit(tx, { account: wallet(63), amount: 1n, reason: 'DEPOSIT', ref: 't' }));
    const [fresh] = (await sql<{ seq: string }>`SELECT seq::text AS seq FROM ledger_transactions WHERE block_number IS NULL`.execute(store.db)).rows;
    await assert.rejects(appendBlock(store.db, { ...again, parentHash: '0xnot-the-head', seqs: [BigInt(fresh!.seq)] }), /lost its parent/);
    assert.equal((await sql<{ n: string }>`SELECT count(*)::text AS n FROM ledger_blocks WHERE number = ${again.number.toString()}::bigint`.execute(store.db)).rows[0]!.n, '0');
    assert.ok((await run((tx) => ledger.sealBlock(tx)))?.txHashes.length === 1);
    assert.ok((await auditLedger(store.db)).ok);
  });

  it('keeps the journal append-only and names each broken invariant', async () => {
    await assert.rejects(sql`UPDATE ledger_entries SET amount = amount + 1`.execute(store.db), /append-only/);
    await assert.rejects(sql`DELETE FROM ledger_transactions`.execute(store.db), /append-only/);
    const a = wallet(50);
    await run(async (tx) => {
      await ledger.credit(tx, { account: a, amount: 10n, reason: 'DEPOSIT', ref: 't' });
      await ledger.reserve(tx, { account: a, asset: COLLATERAL, amount: 4n, ref: 'o' });
    });
    const unexplained = await auditLedger(store.db);
    assert.deepEqual(unexplained.violations.map((v) => v.invariant), ['locks-match-commitments']);
    assert.ok((await auditLedger(store.db, new Map([[lockKey(a, COLLATERAL), 4n]]))).ok);
    await sql`UPDATE ledger_balances SET balance = balance + 1 WHERE account = ${a}`.execute(store.db);
    const tampered = await auditLedger(store.db, new Map([[lockKey(a, COLLATERAL), 4n]]));
    assert.deepEqual(tampered.violations.map((v) => v.invariant).sort(), ['balances-match-journal', 'collateral-equals-deposits']);
    await sql`UPDATE ledger_balances SET balance = balance - 1 WHERE account = ${a}`.execute(store.db);
  });
});
