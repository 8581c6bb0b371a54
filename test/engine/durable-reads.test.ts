import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestStore } from '../helpers/database.ts';
import { USERS } from '../helpers/engine-workload.ts';
import { startGatedEngine } from '../helpers/gated-engine.ts';
import { send } from '../helpers/simulation.ts';

/**
 * What a reader of the leading engine sees while a record's append is in flight (README.md "What a
 * reader sees"): the books, last trades and balances as the durable records left them, so nothing
 * shown can vanish if the append fails; the caller's own answer, once it comes, is in all of them.
 */
describe('engine: reads while an append is in flight', () => {
  it('show the book, the last trade and the balances without the record, and with it once durable', { timeout: 60_000 }, async () => {
    const store = await openTestStore();
    try {
      const { engine, workload, directory, gated } = await startGatedEngine(store, 'append');
      try {
        const place = (user: number, side: 'BUY' | 'SELL', cents: number, units: number) => {
          const [command] = workload.toCommands({ kind: 'place', user, market: 0, outcome: 0, side, cents, units, type: 'GTC', postOnly: false, expiresInSec: 0 }, [], 1_764_000_000).commands;
          return send(engine, command!, directory);
        };
        const token = workload.markets[0]!.tokenId1;
        const collateral = (user: number) => engine.reads.balances(USERS[user]!).collateral;
        await place(3, 'SELL', 58, 1);
        await place(1, 'BUY', 58, 1);
        await place(0, 'SELL', 60, 10);
        const before = { book: engine.reads.orderBook(token)!, last: engine.reads.lastTradePrice(token), buyer: collateral(2) };
        assert.deepEqual(before.book.asks.map((l) => [l.price, l.size]), [['0.6', '10']]);
        assert.deepEqual(before.last, { price: '0.58', side: 'buy' });

        // A bid at 0.55 rests, then a buy at 0.65 takes 3 of the ask: both records in flight.
        gated.hold();
        const resting = place(2, 'BUY', 55, 4);
        const taking = place(2, 'BUY', 65, 3);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const live = engine.reads.orderBook(token)!;
        assert.deepEqual(live, { ...before.book, timestamp: live.timestamp }, 'the book is the durable one, its hash too');
        assert.deepEqual(engine.reads.lastTradePrice(token), before.last);
        assert.deepEqual(collateral(2), before.buyer);

        gated.release();
        await Promise.all([resting, taking]);
        const after = engine.reads.orderBook(token)!;
        assert.deepEqual(after.asks.map((l) => [l.price, l.size]), [['0.6', '7']]);
        assert.deepEqual(after.bids.map((l) => [l.price, l.size]), [['0.55', '4']]);
        assert.notEqual(after.hash, before.book.hash);
        assert.deepEqual(engine.reads.lastTradePrice(token), { price: '0.6', side: 'buy' });
        assert.ok(collateral(2).available < before.buyer.available, 'the buyer paid for the fill and reserved for the bid');
      } finally {
        gated.release();
        await engine.stop();
      }
    } finally {
      await store.close();
    }
  });
});
