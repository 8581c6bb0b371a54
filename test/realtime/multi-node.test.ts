import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OrderbookPriceChange } from '../../src/contract/realtime.ts';
import type { BookLevel, BookSnapshot } from '../../src/contract/realtime.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { expectError, get } from '../helpers/http.ts';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { signedRequest } from '../helpers/auth-client.ts';
import { newTrader, orderBody, placeOrder, type Trader } from '../helpers/trader.ts';
import { applyLevelChange, levels, restBook, type Inbox, type Received } from './helpers.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

/** Reads the inbox until `done` holds for what was read, and returns it all. */
async function readUntil(inbox: Inbox, done: (read: Received[]) => boolean): Promise<Received[]> {
  const read: Received[] = [];
  while (!done(read)) read.push(await inbox.next());
  return read;
}

const withoutTimestamp = ({ timestamp: _timestamp, ...book }: Record<string, unknown>) => book;

describe('two server processes on one PostgreSQL and one Redis', { skip, timeout: 120_000 }, () => {
  let cluster: SeveralNodes;
  let nodeA: ProcessServer;
  let nodeB: ProcessServer;
  let market: PublishedMarket;
  let maker: Trader;
  let taker: Trader;
  const inboxes = new OpenInboxes();

  before(async () => {
    // A starts first and takes the engine lock; B serves reads and the real-time feeds.
    cluster = await startSeveralNodes(2);
    [nodeA, nodeB] = cluster.nodes as [ProcessServer, ProcessServer];
    market = (await createPublishedEvent(nodeA)).markets[0]!;
    [maker, taker] = [await newTrader(nodeA, { fund: '1000' }), await newTrader(nodeA, { fund: '1000' })];
  });
  after(async () => {
    inboxes.closeAll();
    await cluster?.close();
  });

  it('a subscriber on node B follows the books and its user updates caused by orders placed through node A', async () => {
    const tokens = [market.tokenId1, market.tokenId2];
    const feed = await inboxes.connect(nodeB.url);
    const makerFeed = await inboxes.connect(nodeB.url, '/user', { token: maker.session.token });
    const takerFeed = await inboxes.connect(nodeB.url, '/user', { token: taker.session.token });

    feed.emit('orderbook-market-connect', tokens);
    const first = [await feed.expect('orderbook'), await feed.expect('orderbook')];
    assert.deepEqual(first.map((snapshot) => snapshot.asset_id), tokens);
    for (const snapshot of first) {
      const { seq: _seq, ...book } = snapshot;
      assert.deepEqual(withoutTimestamp(book), withoutTimestamp(await restBook(nodeB, snapshot.asset_id)));
    }

    // Through node A: two resting BUYs of the maker, a taker BUY of token 2 that mints against
    // the first (0.40 + 0.60), and a cancel.
    const resting = await placeOrder(nodeA, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.40', size: '10', signed: false });
    const other = await placeOrder(nodeA, maker, { tokenId: market.tokenId2, side: 'BUY', price: '0.30', size: '5', signed: false });
    const taking = await placeOrder(nodeA, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.60', size: '4', signed: false });
    assert.deepEqual([resting.status, other.status, taking.status], [200, 200, 200]);
    assert.equal((await maker.call('POST', `/orders/${other.body.id}/cancel`)).status, 200);

    // Node B runs no engine: it passes order commands to node A and answers with A's answer.
    const third = await newTrader(nodeA, { fund: '10' });
    const onB = await signedRequest(nodeB, third.creds, 'POST', '/orders', await orderBody(nodeB, third, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false }));
    assert.equal(onB.status, 200);
    assert.equal((await third.call('GET', `/orders/${onB.body.id}`)).body.status, 'PENDING', 'node A has the order placed through node B');
    assert.equal((await signedRequest(nodeB, third.creds, 'POST', `/orders/${onB.body.id}/cancel`)).body.status, 'CANCELLED');

    // Asking again ends the stream: every change published before is read ahead of the fresh
    // snapshots, which show every acknowledged order (a change waiting for its frame goes out first).
    feed.emit('orderbook-market-connect', tokens);
    const stream = await readUntil(feed, (read) => read.filter((m) => m.event === 'orderbook').length === 2);
    const last = stream.filter((m) => m.event === 'orderbook').map((m) => m.payload as BookSnapshot);
    for (const [index, tokenId] of tokens.entries()) {
      const bids = new Map(first[index]!.bids.map((level) => [level.price, level.size]));
      const asks = new Map(first[index]!.asks.map((level) => [level.price, level.size]));
      let seq = first[index]!.seq;
      for (const message of stream.filter((m) => m.event === 'orderbook-price-change' && m.payload.asset_id === tokenId)) {
        const change = message.payload as OrderbookPriceChange;
        assert.equal(change.seq, seq + 1, 'seq is contiguous');
        for (const level of change.changes) applyLevelChange(level.side === 'buy' ? bids : asks, level);
        seq = change.seq;
      }
      const final = last[index]!;
      assert.ok(seq > first[index]!.seq, 'the orders changed the book');
      const priceAndSize = (book: BookLevel[]) => book.map(({ price, size }) => ({ price, size }));
      assert.deepEqual([seq, levels(bids, 'buy'), levels(asks, 'sell')], [final.seq, priceAndSize(final.bids), priceAndSize(final.asks)]);
      const [onB, onA] = [await restBook(nodeB, tokenId), await restBook(nodeA, tokenId)];
      assert.deepEqual([final.hash, onB.hash], [onA.hash, onA.hash]);
      assert.deepEqual(withoutTimestamp(onB), withoutTimestamp(onA));
      const lastPrice = stream.filter((m) => m.event === 'last-trade-price' && m.payload.asset_id === tokenId).at(-1)?.payload;
      const [priceOnB, priceOnA] = [await get(nodeB.api(`/order-book/last-trade-price?token_id=${tokenId}`)), await get(nodeA.api(`/order-book/last-trade-price?token_id=${tokenId}`))];
      assert.deepEqual([priceOnB.status, priceOnB.body], [200, priceOnA.body]);
      assert.deepEqual({ price: lastPrice.price, side: lastPrice.side }, priceOnB.body);
    }
    // The maker's BUY of token 1 rests with 6 left; the token 2 book is its mirror.
    assert.deepEqual(last[0]!.bids, [{ price: '0.4', size: '6', numOrders: 1 }]);

    const makerEvents = await readUntil(makerFeed, (read) =>
      read.some((m) => m.event === 'trade-update' && m.payload.status === 'CONFIRMED') && read.some((m) => m.event === 'order-update' && m.payload.type === 'CANCELLATION'));
    const takerEvents = await readUntil(takerFeed, (read) => read.some((m) => m.event === 'trade-update' && m.payload.status === 'CONFIRMED'));
    const orderUpdates = (events: Received[]) => events.filter((m) => m.event === 'order-update').map((m) => [m.payload.type, m.payload.order.id, m.payload.order.status]);
    const tradeUpdates = (events: Received[]) => events.filter((m) => m.event === 'trade-update').map((m) => [m.payload.id, m.payload.status]);
    assert.deepEqual(orderUpdates(makerEvents), [
      ['PLACEMENT', resting.body.id, 'PENDING'],
      ['PLACEMENT', other.body.id, 'PENDING'],
      ['UPDATE', resting.body.id, 'EXECUTING'],
      ['CANCELLATION', other.body.id, 'CANCELLED'],
    ]);
    assert.ok(orderUpdates(takerEvents).every(([, id]) => id === taking.body.id), 'the taker hears of its own order only');
    const trades = tradeUpdates(makerEvents);
    assert.deepEqual(trades.map(([, status]) => status), ['MATCHED', 'MINED', 'CONFIRMED']);
    assert.deepEqual(tradeUpdates(takerEvents), trades, 'both parties get every status of the one trade');
  });

  it('node B answers REST books of unknown tokens with 404, as node A does', async () => {
    for (const node of [nodeA, nodeB]) {
      expectError(await get(node.api('/order-book/book?token_id=123')), 404, 'NOT_FOUND');
      expectError(await get(node.api('/order-book/last-trade-price?token_id=123')), 404, 'NOT_FOUND');
    }
  });

  it('an event published through node B reaches the engine on node A and trades there', async () => {
    const published = (await createPublishedEvent(nodeB)).markets[0]!;
    // The change travels over Redis after node B committed it: wait (bounded) for node A's book.
    let book = await get(nodeA.api(`/order-book/book?token_id=${published.tokenId1}`));
    for (let attempt = 0; book.status === 404 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      book = await get(nodeA.api(`/order-book/book?token_id=${published.tokenId1}`));
    }
    assert.equal(book.status, 200, 'node A has the market published through node B');
    const placed = await placeOrder(nodeA, maker, { tokenId: published.tokenId1, side: 'BUY', price: '0.25', size: '2', signed: false });
    assert.equal(placed.status, 200);
    assert.equal((await restBook(nodeB, published.tokenId1)).bids[0]?.price, '0.25');
  });

  it('when the engine node stops, node B takes the engine over and serves the same books itself', async () => {
    const before = await restBook(nodeB, market.tokenId1);
    await nodeA.stop();
    for (let i = 0; i < 200; i++) {
      const ready = await get(`${nodeB.url}/readyz`);
      if (ready.status === 200 && ready.body.role === 'leader') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual({ ...(await get(`${nodeB.url}/readyz`)).body, node: undefined }, { status: 'ready', role: 'leader', node: undefined });
    assert.deepEqual(withoutTimestamp(await restBook(nodeB, market.tokenId1)), withoutTimestamp(before));
    const feed = await inboxes.connect(nodeB.url);
    feed.emit('orderbook-market-connect', [market.tokenId1]);
    const snapshot = await feed.expect('orderbook');
    assert.equal(snapshot.hash, before.hash);
  });
});
