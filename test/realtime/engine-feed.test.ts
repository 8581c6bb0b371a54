import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { io as connect } from 'socket.io-client';
import type { BookSnapshot, OrderbookPriceChange } from '../../src/contract/realtime.ts';
import { createPublishedEvent, patchMarket, type PublishedMarket } from '../helpers/catalogue.ts';
import { createApiKey } from '../helpers/auth-client.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { expectAuditClean, newTrader, placeOrder, type Trader } from '../helpers/trader.ts';
import { restBook, subscribeBooks, until, type Client } from './helpers.ts';

/** A subscriber as a trading client keeps it: a snapshot, then every change applied in seq order. */
class LocalBook {
  seq = -1;
  hash = '';
  gaps = 0;
  private bids = new Map<string, string>();
  private asks = new Map<string, string>();

  snapshot(book: BookSnapshot): void {
    this.seq = book.seq;
    this.hash = book.hash;
    this.bids = new Map(book.bids.map((l) => [l.price, l.size]));
    this.asks = new Map(book.asks.map((l) => [l.price, l.size]));
  }

  apply(change: OrderbookPriceChange): void {
    if (change.seq !== this.seq + 1) this.gaps += 1;
    this.seq = change.seq;
    this.hash = change.hash;
    for (const level of change.changes) {
      const side = level.side === 'buy' ? this.bids : this.asks;
      if (level.size === '0') side.delete(level.price);
      else side.set(level.price, level.size);
    }
  }

  levels(): { bids: [string, string][]; asks: [string, string][] } {
    const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort(([a], [b]) => (desc ? Number(b) - Number(a) : Number(a) - Number(b)));
    return { bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }
}

const subscribe = (server: TestServer, tokenIds: string[]) => subscribeBooks(server.url, tokenIds, () => new LocalBook());

describe('real-time order books from the engine, over real sockets', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let traders: Trader[];

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    traders = [await newTrader(server, { fund: '100000' }), await newTrader(server, { fund: '100000' })];
    for (const trader of traders) await trader.call('POST', `/markets/${market.id}/split`, { amount: '1000' });
  });
  after(async () => {
    await server.ctx.trading.engine.settle();
    await expectAuditClean(server);
    await server.close();
  });

  it('a subscriber applying every change holds exactly the REST book of both tokens, with contiguous seq', async () => {
    const { client, books } = await subscribe(server, [market.tokenId1, market.tokenId2]);
    const placed: { trader: Trader; id: string }[] = [];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('place' as const), trader: fc.nat(1), token: fc.nat(1), side: fc.constantFrom('BUY' as const, 'SELL' as const), cents: fc.integer({ min: 30, max: 70 }), size: fc.integer({ min: 1, max: 5 }), type: fc.constantFrom('GTC' as const, 'GTC' as const, 'FAK' as const) }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
    );
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          for (const s of steps) {
            if (s.kind === 'place') {
              const trader = traders[s.trader]!;
              const response = await placeOrder(server, trader, { tokenId: s.token === 0 ? market.tokenId1 : market.tokenId2, side: s.side, price: (s.cents / 100).toFixed(2), size: String(s.size), orderType: s.type, signed: false });
              assert.equal(response.status, 200, JSON.stringify(response.body));
              placed.push({ trader, id: response.body.id });
            } else if (placed.length > 0) {
              const { trader, id } = placed[s.pick % placed.length]!;
              await trader.call('POST', `/orders/${id}/cancel`);
            }
            for (const tokenId of [market.tokenId1, market.tokenId2]) {
              const rest = await restBook(server, tokenId);
              const local = books.get(tokenId)!;
              await until(() => local.hash === rest.hash, `the feed of ${tokenId} to reach the REST book`);
              assert.deepEqual(local.levels(), { bids: rest.bids.map((l: { price: string; size: string }) => [l.price, l.size]), asks: rest.asks.map((l: { price: string; size: string }) => [l.price, l.size]) });
              assert.equal(local.gaps, 0, 'seq must be contiguous');
            }
          }
        }),
        { numRuns: 8 },
      );
    } finally {
      client.close();
    }
  });

  it('a reconnecting subscriber gets a fresh snapshot that matches REST', async () => {
    const first = await subscribe(server, [market.tokenId1]);
    first.client.close();
    await placeOrder(server, traders[0]!, { tokenId: market.tokenId1, side: 'BUY', price: '0.31', size: '2', signed: false });
    const again = await subscribe(server, [market.tokenId1]);
    try {
      // Asked for after the order's acknowledgement, the snapshot shows it even while its frame is pending.
      const rest = await restBook(server, market.tokenId1);
      assert.equal(again.books.get(market.tokenId1)!.hash, rest.hash);
      assert.ok(again.books.get(market.tokenId1)!.seq > first.books.get(market.tokenId1)!.seq);
    } finally {
      again.client.close();
    }
  });

  it("a tick size change arrives as a snapshot of each token; a resolved market's subscribers see every level removed", async () => {
    const resolving = (await createPublishedEvent(server, { liveness: 1 })).markets[0]!;
    assert.equal((await placeOrder(server, traders[0]!, { tokenId: resolving.tokenId1, side: 'BUY', price: '0.3', size: '2', signed: false })).status, 200);
    const { client, books } = await subscribe(server, [resolving.tokenId1, resolving.tokenId2]);
    const snapshots: BookSnapshot[] = [];
    client.on('orderbook', (snapshot) => snapshots.push(snapshot));
    try {
      assert.deepEqual(books.get(resolving.tokenId2)!.levels().asks, [['0.7', '2']]);
      await patchMarket(server, resolving.id, { tickSize: '0.001' });
      await until(() => snapshots.length === 2, 'a snapshot of each token');
      assert.deepEqual(snapshots.map((snapshot) => [snapshot.asset_id, snapshot.tick_size]), [[resolving.tokenId1, '0.001'], [resolving.tokenId2, '0.001']]);

      // An operator proposal, undisputed through its one-second window: the market resolves, its orders are cancelled.
      assert.equal((await post(server.api(`/admin/markets/${resolving.id}/oracle/propose`), { outcome: 'YES' }, server.adminHeaders)).status, 200);
      assert.equal((await post(server.api('/admin/clock'), { advanceMs: 2_000 }, server.adminHeaders)).status, 200);
      await until(() => [resolving.tokenId1, resolving.tokenId2].every((tokenId) => books.get(tokenId)!.levels().bids.length + books.get(tokenId)!.levels().asks.length === 0), 'every level removed');
      assert.deepEqual([books.get(resolving.tokenId1)!.gaps, books.get(resolving.tokenId2)!.gaps], [0, 0]);
    } finally {
      client.close();
    }
  });

  it('/user receives order-update and trade-update for its own orders only, at MATCHED and later statuses', async () => {
    const [alice, bob] = traders as [Trader, Trader];
    for (const trader of traders) await trader.call('POST', '/orders/cancel-all');
    const aliceKey = await createApiKey(server, alice.session.token);
    const timestamp = (await get(server.api('/exchange'))).body.serverTime as number;
    const signature = createHmac('sha256', aliceKey.secret).update(`${timestamp}GET/user`).digest('hex');
    const user: Client = connect(`${server.url}/user`, { transports: ['websocket'], forceNew: true, auth: { apiKey: aliceKey.apiKey, passphrase: aliceKey.passphrase, timestamp, signature } });
    const orders: { type: string; order: { id: string; owner: string; status: string } }[] = [];
    const trades: { status: string; id: string }[] = [];
    user.on('order-update', (update) => orders.push(update as never));
    user.on('trade-update', (trade) => trades.push(trade as never));
    await new Promise<void>((resolve, reject) => {
      user.once('connect', resolve);
      user.once('connect_error', reject);
    });
    try {
      // Trades of the earlier tests may still be settling (one round per block): follow this one.
      const earlier = trades.length;
      const resting = await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.69', size: '1', signed: false });
      await placeOrder(server, bob, { tokenId: market.tokenId1, side: 'SELL', price: '0.69', size: '1', signed: false });
      await server.ctx.trading.engine.settle();
      await until(() => trades.slice(earlier).some((t) => t.status === 'MATCHED'), 'the MATCHED trade-update');
      const tradeId = trades.slice(earlier).find((t) => t.status === 'MATCHED')!.id;
      const statuses = () => trades.filter((t) => t.id === tradeId).map((t) => t.status);
      await until(() => statuses().includes('CONFIRMED'), 'its CONFIRMED trade-update');
      assert.ok(orders.every((u) => u.order.owner === alice.userId), 'only her own orders');
      assert.deepEqual(orders.filter((u) => u.order.id === resting.body.id).map((u) => [u.type, u.order.status]), [['PLACEMENT', 'PENDING'], ['UPDATE', 'EXECUTED']]);
      assert.deepEqual(statuses(), ['MATCHED', 'MINED', 'CONFIRMED']);
    } finally {
      user.close();
    }
  });
});
