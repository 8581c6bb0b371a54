import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BookSnapshot, OrderbookPriceChange } from '../../src/contract/realtime.ts';
import type { TestServer } from '../helpers/server.ts';
import { placeOrder, type Trader } from '../helpers/trader.ts';
import { useTwoTraders } from '../helpers/two-traders.ts';
import { bookHash } from '../../src/engine/book-view.ts';
import { applyLevelChange, levels, restBook, subscribeBooks, until } from './helpers.ts';

/**
 * A subscriber's book that checks every change as it applies it: seq follows the snapshot's one
 * by one, and the hash a change carries is the hash of the book it leaves.
 */
class CheckedBook {
  seq = -1;
  hash = '';
  changes = 0;
  readonly problems: string[] = [];
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();

  snapshot(book: BookSnapshot): void {
    this.seq = book.seq;
    this.hash = book.hash;
    this.bids.clear();
    this.asks.clear();
    for (const level of book.bids) this.bids.set(level.price, level.size);
    for (const level of book.asks) this.asks.set(level.price, level.size);
  }

  apply(change: OrderbookPriceChange): void {
    if (this.seq < 0) return; // before the snapshot: not subscribed yet
    if (change.seq !== this.seq + 1) this.problems.push(`seq ${change.seq} after ${this.seq}`);
    for (const level of change.changes) applyLevelChange(level.side === 'buy' ? this.bids : this.asks, level);
    this.seq = change.seq;
    this.hash = change.hash;
    this.changes += 1;
    const applied = bookHash(change.market, change.asset_id, levels(this.bids, 'buy'), levels(this.asks, 'sell'));
    if (applied !== change.hash) this.problems.push(`seq ${change.seq}: hash of the applied book differs from the change's`);
  }

  levels() {
    return { bids: levels(this.bids, 'buy'), asks: levels(this.asks, 'sell') };
  }
}

/** A subscriber of both tokens of a market, each book checked as it goes. */
const subscribe = (server: TestServer, tokenIds: string[]) => subscribeBooks(server.url, tokenIds, () => new CheckedBook());
const priceAndSize = (side: { price: string; size: string }[]) => side.map(({ price, size }) => ({ price, size }));

describe('book changes in frames, over real sockets', () => {
  const world = useTwoTraders({ fund: '100000', split: '1000' });

  it('many quick orders: every subscriber, early or joining mid-flow, gets contiguous seq, and snapshot plus changes is the REST book, hash included', async () => {
    const { server } = world;
    const market = world.event.markets[0]!;
    const traders = [world.alice, world.bob];
    const tokens = [market.tokenId1, market.tokenId2];
    const early = await subscribe(server, tokens);
    const subscribers = [early];
    try {
      // Waves of orders sent together (several per engine batch, several batches per frame):
      // resting bids and asks on both tokens, takers crossing them, and cancels of the previous
      // wave's orders, so levels come and go within a frame. Every other wave a subscriber joins
      // while the wave is in flight.
      let toCancel: { trader: Trader; id: string }[] = [];
      for (let wave = 0; wave < 8; wave++) {
        const orders = Array.from({ length: 12 }, (_, i) => {
          const trader = traders[(wave + i) % 2]!;
          const tokenId = tokens[i % 2]!;
          const side = i % 3 === 0 ? 'SELL' : 'BUY';
          const cents = side === 'BUY' ? 40 + ((wave * 7 + i) % 15) : 50 + ((wave * 5 + i) % 15);
          return placeOrder(server, trader, { tokenId, side, price: (cents / 100).toFixed(2), size: String(1 + (i % 4)), signed: false }).then((response) => ({ trader, response }));
        });
        const cancels = toCancel.map(({ trader, id }) => trader.call('POST', `/orders/${id}/cancel`));
        const joining = wave % 2 === 1 ? subscribe(server, tokens) : undefined;
        const placed = await Promise.all(orders);
        await Promise.all(cancels);
        if (joining) subscribers.push(await joining);
        for (const { response } of placed) assert.equal(response.status, 200, JSON.stringify(response.body));
        toCancel = placed.filter(({ response }, i) => i % 2 === 0 && response.body.status === 'PENDING').map(({ trader, response }) => ({ trader, id: response.body.id as string }));
      }
      await traders[0]!.call('POST', '/orders/cancel-all');

      for (const tokenId of tokens) {
        const rest = await restBook(server, tokenId);
        for (const [index, { books }] of subscribers.entries()) {
          const book = books.get(tokenId)!;
          await until(() => book.hash === rest.hash, `subscriber ${index} to reach the REST book of ${tokenId}`);
          assert.deepEqual(book.problems, [], `subscriber ${index}, token ${tokenId}`);
          assert.deepEqual(book.levels(), { bids: priceAndSize(rest.bids), asks: priceAndSize(rest.asks) });
        }
      }
      // A fresh snapshot now shows the last published change: it is where the early subscriber's stream ended.
      const late = await subscribe(server, tokens);
      subscribers.push(late);
      for (const tokenId of tokens) assert.deepEqual([late.books.get(tokenId)!.seq, late.books.get(tokenId)!.hash], [early.books.get(tokenId)!.seq, early.books.get(tokenId)!.hash]);
    } finally {
      for (const { client } of subscribers) client.close();
    }
  });
});
