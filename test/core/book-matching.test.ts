import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MarketBook } from '../../src/core/book/market-book.ts';
import { buy, NOW, sell, TOKEN } from '../helpers/book-orders.ts';

const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('MarketBook: one book, two views', () => {
  it('rests BUY outcome 0 as a bid, SELL outcome 0 as an ask, and outcome 1 mirrored', () => {
    const book = new MarketBook();
    book.submit(buy(0, 400_000), NOW);
    book.submit(sell(1, 500_000), NOW); // bid at 0.50 in outcome-0 terms
    book.submit(sell(0, 700_000), NOW);
    book.submit(buy(1, 200_000), NOW); // ask at 0.80
    assert.deepEqual(book.levels(0), {
      bids: [
        { priceMicros: 500_000, sizeBaseUnits: TOKEN, orderCount: 1 },
        { priceMicros: 400_000, sizeBaseUnits: TOKEN, orderCount: 1 },
      ],
      asks: [
        { priceMicros: 700_000, sizeBaseUnits: TOKEN, orderCount: 1 },
        { priceMicros: 800_000, sizeBaseUnits: TOKEN, orderCount: 1 },
      ],
    });
    assert.deepEqual(book.levels(1), {
      bids: [
        { priceMicros: 300_000, sizeBaseUnits: TOKEN, orderCount: 1 },
        { priceMicros: 200_000, sizeBaseUnits: TOKEN, orderCount: 1 },
      ],
      asks: [
        { priceMicros: 500_000, sizeBaseUnits: TOKEN, orderCount: 1 },
        { priceMicros: 600_000, sizeBaseUnits: TOKEN, orderCount: 1 },
      ],
    });
  });

  it('aggregates one level per price with its total and order count', () => {
    const book = new MarketBook();
    book.submit(buy(0, 400_000, { tokens: 2 }), NOW);
    book.submit(sell(1, 600_000, { tokens: 3 }), NOW); // also a bid at 0.40
    book.submit(buy(0, 300_000), NOW);
    assert.deepEqual(book.levels(0).bids, [
      { priceMicros: 400_000, sizeBaseUnits: 5n * TOKEN, orderCount: 2 },
      { priceMicros: 300_000, sizeBaseUnits: TOKEN, orderCount: 1 },
    ]);
    assert.deepEqual(book.levels(1).asks, [
      { priceMicros: 600_000, sizeBaseUnits: 5n * TOKEN, orderCount: 2 },
      { priceMicros: 700_000, sizeBaseUnits: TOKEN, orderCount: 1 },
    ]);
  });
});

describe('MarketBook: crossing kinds at the maker price', () => {
  it('TRANSFER: same token, opposite sides', () => {
    const book = new MarketBook();
    const maker = sell(0, 600_000);
    book.submit(maker, NOW);
    const taker = buy(0, 650_000);
    const result = book.submit(taker, NOW);
    assert.equal(result.status, 'EXECUTED');
    assert.equal(result.rested, false);
    assert.deepEqual(result.fills, [
      {
        kind: 'TRANSFER',
        sizeBaseUnits: TOKEN,
        maker: { orderId: maker.id, ownerId: maker.ownerId, outcome: 0, side: 'SELL', priceMicros: 600_000, feeBaseUnits: 0n },
        taker: { orderId: taker.id, ownerId: taker.ownerId, outcome: 0, side: 'BUY', priceMicros: 600_000, feeBaseUnits: 0n },
      },
    ]);
  });

  it('TRANSFER on outcome 1 executes at the maker price in outcome 1 terms', () => {
    const book = new MarketBook();
    book.submit(buy(1, 300_000), NOW);
    const [fill] = book.submit(sell(1, 250_000), NOW).fills;
    assert.equal(fill!.kind, 'TRANSFER');
    assert.equal(fill!.maker.priceMicros, 300_000);
    assert.equal(fill!.taker.priceMicros, 300_000);
  });

  it('MINT: two buys of different tokens; their prices add up to one', () => {
    const book = new MarketBook();
    book.submit(buy(0, 600_000), NOW);
    const result = book.submit(buy(1, 450_000), NOW); // ask at 0.55 ≤ bid 0.60
    const [fill] = result.fills;
    assert.equal(fill!.kind, 'MINT');
    assert.equal(fill!.maker.priceMicros, 600_000);
    assert.equal(fill!.taker.priceMicros, 400_000);
    assert.equal(fill!.maker.side, 'BUY');
    assert.equal(fill!.taker.side, 'BUY');
  });

  it('MERGE: two sells of different tokens', () => {
    const book = new MarketBook();
    book.submit(sell(0, 400_000), NOW);
    const [fill] = book.submit(sell(1, 500_000), NOW).fills; // bid at 0.50 ≥ ask 0.40
    assert.equal(fill!.kind, 'MERGE');
    assert.equal(fill!.maker.priceMicros, 400_000);
    assert.equal(fill!.taker.priceMicros, 600_000);
  });

  it('does not trade when the prices do not cross', () => {
    const book = new MarketBook();
    book.submit(buy(0, 500_000), NOW);
    const result = book.submit(buy(1, 490_000), NOW); // ask at 0.51 > bid 0.50
    assert.equal(result.fills.length, 0);
    assert.equal(result.status, 'PENDING');
    assert.equal(result.rested, true);
  });
});

describe('MarketBook: price-time priority and partial fills', () => {
  it('takes the best price first, then the oldest order at a price', () => {
    const book = new MarketBook();
    const far = sell(0, 520_000);
    const first = sell(0, 510_000);
    const second = buy(1, 490_000); // ask at 0.51 too, later
    for (const o of [far, first, second]) book.submit(o, NOW);
    const result = book.submit(buy(0, 600_000, { tokens: 3 }), NOW);
    assert.deepEqual(result.fills.map((f) => [f.maker.orderId, f.taker.priceMicros]), [
      [first.id, 510_000],
      [second.id, 510_000],
      [far.id, 520_000],
    ]);
    assert.deepEqual(result.fills.map((f) => f.kind), ['TRANSFER', 'MINT', 'TRANSFER']);
  });

  it('fills the min of remaining sizes and leaves the maker resting with the rest', () => {
    const book = new MarketBook();
    const maker = sell(0, 500_000, { tokens: 5 });
    book.submit(maker, NOW);
    const result = book.submit(buy(0, 500_000, { tokens: 2 }), NOW);
    assert.equal(result.fills[0]!.sizeBaseUnits, 2n * TOKEN);
    assert.equal(book.get(maker.id)!.remainingBaseUnits, 3n * TOKEN);
    assert.equal(book.get(maker.id)!.sizeBaseUnits, 5n * TOKEN);
    assert.deepEqual(book.levels(0).asks, [{ priceMicros: 500_000, sizeBaseUnits: 3n * TOKEN, orderCount: 1 }]);
  });

  it('GTC: PENDING without fills, EXECUTING when partly filled and resting, EXECUTED when done', () => {
    const book = new MarketBook();
    assert.equal(book.submit(sell(0, 500_000, { tokens: 2 }), NOW).status, 'PENDING');
    const partly = buy(0, 500_000, { tokens: 3 });
    const result = book.submit(partly, NOW);
    assert.equal(result.status, 'EXECUTING');
    assert.equal(result.rested, true);
    assert.equal(book.get(partly.id)!.remainingBaseUnits, TOKEN);
    assert.equal(book.get(partly.id)!.sizeBaseUnits, 3n * TOKEN);
    assert.equal(book.submit(sell(0, 400_000), NOW).status, 'EXECUTED');
    assert.equal(book.get(partly.id), undefined);
  });

  it('get answers a copy, so the caller cannot move the book', () => {
    const book = new MarketBook();
    const o = buy(0, 400_000);
    book.submit(o, NOW);
    const seen = book.get(o.id) as { remainingBaseUnits: bigint };
    seen.remainingBaseUnits = 0n;
    assert.equal(book.get(o.id)!.remainingBaseUnits, TOKEN);
  });
});

describe('MarketBook: self-trade prevention and expiry', () => {
  it('cancels the caller’s own crossing resting order and goes on matching', () => {
    const book = new MarketBook();
    const own = sell(0, 500_000, { ownerId: 'alice' });
    const other = buy(1, 480_000, { ownerId: 'bob' }); // ask at 0.52
    book.submit(own, NOW);
    book.submit(other, NOW);
    const result = book.submit(buy(0, 550_000, { ownerId: 'alice' }), NOW);
    assert.deepEqual(ids(result.cancelledOwn), [own.id]);
    assert.deepEqual(result.fills.map((f) => f.maker.orderId), [other.id]);
    assert.equal(book.get(own.id), undefined);
  });

  it('leaves the caller’s own orders that do not cross', () => {
    const book = new MarketBook();
    const own = sell(0, 600_000, { ownerId: 'alice' });
    book.submit(own, NOW);
    const result = book.submit(buy(0, 550_000, { ownerId: 'alice' }), NOW);
    assert.deepEqual(result.cancelledOwn, []);
    assert.ok(book.get(own.id));
  });

  it('removes and skips expired resting orders met while matching', () => {
    const book = new MarketBook();
    const stale = sell(0, 500_000, { expirationSec: NOW });
    const live = sell(0, 500_000, { expirationSec: NOW + 1 });
    book.submit(stale, NOW - 10);
    book.submit(live, NOW - 10);
    const result = book.submit(buy(0, 500_000), NOW);
    assert.deepEqual(ids(result.expired), [stale.id]);
    assert.deepEqual(result.fills.map((f) => f.maker.orderId), [live.id]);
    assert.equal(book.get(stale.id), undefined);
  });

  it('expireUntil removes exactly the orders with 0 < expiration ≤ now, soonest first', () => {
    const book = new MarketBook();
    const later = buy(0, 100_000, { expirationSec: NOW + 5 });
    const sooner = buy(0, 200_000, { expirationSec: NOW + 2 });
    const never = buy(0, 300_000, { expirationSec: 0 });
    const beyond = sell(0, 900_000, { expirationSec: NOW + 6 });
    for (const o of [later, sooner, never, beyond]) book.submit(o, NOW);
    assert.deepEqual(book.expireUntil(NOW + 1), []);
    assert.deepEqual(ids(book.expireUntil(NOW + 5)), [sooner.id, later.id]);
    assert.deepEqual(book.expireUntil(NOW + 5), []);
    assert.ok(book.get(never.id));
    assert.ok(book.get(beyond.id));
    assert.deepEqual(book.levels(0).bids, [{ priceMicros: 300_000, sizeBaseUnits: TOKEN, orderCount: 1 }]);
  });

  it('expireUntil does not return orders that already left the book', () => {
    const book = new MarketBook();
    const cancelled = buy(0, 100_000, { expirationSec: NOW + 1 });
    const filled = buy(0, 200_000, { expirationSec: NOW + 1 });
    book.submit(cancelled, NOW);
    book.submit(filled, NOW);
    assert.equal(book.cancel(cancelled.id), true);
    book.submit(sell(0, 200_000), NOW);
    assert.deepEqual(book.expireUntil(NOW + 1), []);
  });
});

describe('MarketBook: FOK, FAK and post-only', () => {
  it('FOK that cannot fill completely is CANCELLED with no fill and the book unchanged', () => {
    const book = new MarketBook();
    const maker = sell(0, 500_000, { tokens: 2 });
    const own = sell(0, 500_000, { ownerId: 'alice' });
    const stale = sell(0, 500_000, { expirationSec: NOW });
    for (const o of [maker, own, stale]) book.submit(o, NOW - 1);
    const before = book.levels(0);
    // 4 tokens crossing in the book, but only 2 are someone else's and live.
    const result = book.submit(buy(0, 500_000, { tokens: 3, type: 'FOK', ownerId: 'alice' }), NOW);
    assert.deepEqual(result, { fills: [], status: 'CANCELLED', rested: false, expired: [], cancelledOwn: [] });
    assert.deepEqual(book.levels(0), before);
  });

  it('FOK that can fill completely executes, removing own and expired orders on the way', () => {
    const book = new MarketBook();
    const own = sell(0, 400_000, { ownerId: 'alice' });
    const stale = sell(0, 450_000, { expirationSec: NOW });
    const maker = sell(0, 500_000, { tokens: 2 });
    for (const o of [own, stale, maker]) book.submit(o, NOW - 1);
    const result = book.submit(buy(0, 500_000, { tokens: 2, type: 'FOK', ownerId: 'alice' }), NOW);
    assert.equal(result.status, 'EXECUTED');
    assert.deepEqual(ids(result.cancelledOwn), [own.id]);
    assert.deepEqual(ids(result.expired), [stale.id]);
    assert.deepEqual(book.levels(0).asks, []);
  });

  it('FAK fills what it can and cancels the rest; EXECUTED when it all fills', () => {
    const book = new MarketBook();
    book.submit(sell(0, 500_000), NOW);
    const partial = book.submit(buy(0, 500_000, { tokens: 3, type: 'FAK' }), NOW);
    assert.equal(partial.status, 'CANCELLED');
    assert.equal(partial.rested, false);
    assert.equal(partial.fills.length, 1);
    assert.deepEqual(book.levels(0), { bids: [], asks: [] });
    assert.equal(book.submit(buy(0, 500_000, { type: 'FAK' }), NOW).status, 'CANCELLED');
    book.submit(sell(0, 500_000), NOW);
    assert.equal(book.submit(buy(0, 500_000, { type: 'FAK' }), NOW).status, 'EXECUTED');
  });

  it('post-only that would cross is REJECTED and changes nothing, own orders included', () => {
    const book = new MarketBook();
    const own = sell(0, 500_000, { ownerId: 'alice' });
    book.submit(own, NOW);
    const before = book.levels(0);
    const crossing = book.submit(buy(0, 500_000, { postOnly: true, ownerId: 'alice' }), NOW);
    assert.deepEqual(crossing, { fills: [], status: 'REJECTED', rested: false, rejectReason: 'POST_ONLY_WOULD_CROSS', expired: [], cancelledOwn: [] });
    assert.ok(book.get(own.id));
    assert.deepEqual(book.levels(0).bids, before.bids);
  });

  it('post-only that crosses only expired orders removes them and rests', () => {
    const book = new MarketBook();
    const stale = sell(0, 500_000, { expirationSec: NOW });
    book.submit(stale, NOW - 1);
    const post = buy(0, 550_000, { postOnly: true });
    const result = book.submit(post, NOW);
    assert.equal(result.status, 'PENDING');
    assert.equal(result.rested, true);
    assert.deepEqual(ids(result.expired), [stale.id]);
    assert.deepEqual(book.levels(0), { bids: [{ priceMicros: 550_000, sizeBaseUnits: TOKEN, orderCount: 1 }], asks: [] });
  });

  it('wouldCross counts live orders, own ones included, and not expired ones', () => {
    const book = new MarketBook();
    book.submit(sell(0, 500_000, { ownerId: 'alice' }), NOW);
    book.submit(sell(0, 400_000, { expirationSec: NOW }), NOW - 1);
    assert.equal(book.wouldCross(buy(0, 450_000), NOW), false);
    assert.equal(book.wouldCross(buy(0, 450_000), NOW - 1), true);
    assert.equal(book.wouldCross(buy(0, 500_000, { ownerId: 'alice' }), NOW), true);
    assert.equal(book.wouldCross(sell(1, 500_000), NOW), true); // a bid at 0.50 in outcome-0 terms
  });
});

describe('MarketBook: fees', () => {
  it('charges the taker its takerFeeBps and the maker its makerFeeBps on min(p, 1 − p) × size, rounded down', () => {
    const book = new MarketBook();
    book.submit(sell(0, 700_000, { tokens: 100, makerFeeBps: 30, takerFeeBps: 999 }), NOW);
    const [fill] = book.submit(buy(0, 700_000, { tokens: 100, takerFeeBps: 200, makerFeeBps: 999 }), NOW).fills;
    // 200 bps × 0.30 × 100 = 0.6 collateral; 30 bps × 0.30 × 100 = 0.09
    assert.equal(fill!.taker.feeBaseUnits, 600_000n);
    assert.equal(fill!.maker.feeBaseUnits, 90_000n);
  });

  it('prices each party’s fee on its own token in a MINT', () => {
    const book = new MarketBook();
    book.submit(buy(0, 900_000, { makerFeeBps: 100 }), NOW);
    const [fill] = book.submit(buy(1, 200_000, { takerFeeBps: 100 }), NOW).fills; // pays 0.10
    assert.equal(fill!.maker.priceMicros, 900_000);
    assert.equal(fill!.taker.priceMicros, 100_000);
    assert.equal(fill!.maker.feeBaseUnits, 1_000n);
    assert.equal(fill!.taker.feeBaseUnits, 1_000n);
  });

  it('rounds a fee below one base unit down to zero', () => {
    const book = new MarketBook();
    book.submit(sell(0, 10_000, { sizeBaseUnits: 100n }), NOW);
    const [fill] = book.submit(buy(0, 10_000, { sizeBaseUnits: 100n, takerFeeBps: 1 }), NOW).fills;
    assert.equal(fill!.taker.feeBaseUnits, 0n);
  });
});

describe('MarketBook: cancel, restore and guards', () => {
  it('cancel answers false when the order is not resting', () => {
    const book = new MarketBook();
    const o = buy(0, 400_000);
    book.submit(o, NOW);
    assert.equal(book.cancel(o.id), true);
    assert.equal(book.cancel(o.id), false);
    assert.equal(book.cancel('nope'), false);
    assert.deepEqual(book.levels(0), { bids: [], asks: [] });
  });

  it('restore puts orders back with their remaining size, time priority in call order', () => {
    const book = new MarketBook();
    const first = { ...sell(0, 500_000, { tokens: 3 }), remainingBaseUnits: TOKEN };
    const second = { ...buy(1, 500_000), remainingBaseUnits: TOKEN }; // an ask at 0.50 too
    book.restore(first);
    book.restore(second);
    assert.deepEqual(book.levels(0).asks, [{ priceMicros: 500_000, sizeBaseUnits: 2n * TOKEN, orderCount: 2 }]);
    const result = book.submit(buy(0, 500_000), NOW);
    assert.equal(result.fills[0]!.maker.orderId, first.id);
    assert.equal(book.get(second.id)!.remainingBaseUnits, TOKEN);
  });

  it('refuses a duplicate id, a price outside (0, 1), a non-positive size and a post-only FOK', () => {
    const book = new MarketBook();
    const o = buy(0, 400_000);
    book.submit(o, NOW);
    assert.throws(() => book.submit(o, NOW), /already in the book/);
    assert.throws(() => book.submit(buy(0, 0), NOW), /strictly between/);
    assert.throws(() => book.submit(buy(0, 1_000_000), NOW), /strictly between/);
    assert.throws(() => book.submit(buy(0, 400_000, { sizeBaseUnits: 0n }), NOW), /positive/);
    assert.throws(() => book.restore({ ...buy(0, 400_000), remainingBaseUnits: 2n * TOKEN }), /remaining at most size/);
    assert.throws(() => book.submit(buy(0, 400_000, { postOnly: true, type: 'FOK' }), NOW), /post-only is for GTC/);
  });

  it('refuses a fill whose collateral is not whole base units (a size off the tick grid)', () => {
    const book = new MarketBook();
    book.submit(sell(0, 333_333, { sizeBaseUnits: 7n }), NOW);
    assert.throws(() => book.submit(buy(0, 333_333, { sizeBaseUnits: 7n }), NOW), /not a whole amount of collateral/);
  });
});
