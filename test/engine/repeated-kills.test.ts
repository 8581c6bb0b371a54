import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bookFromOrders, openOrders, publishedBook } from '../helpers/books.ts';
import { expectBuiltAuditClean } from '../helpers/build.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { restartedInPlaceStore, useDurableStore } from '../helpers/database.ts';
import { get } from '../helpers/http.ts';
import { startProcessServer, type ProcessServer } from '../helpers/process-server.ts';
import { newTrader, orderBody, type Trader } from '../helpers/trader.ts';

const ROUNDS = 3;
const PLACES_PER_ROUND = 90;

/** What the exchange acknowledged, across every round: it must all be there after each restart. */
interface Acknowledged {
  /** Placed orders and the amount matched when each was answered. */
  orders: Map<string, { trader: Trader; matchedAmount: number }>;
  /** Orders whose cancel was answered CANCELLED. */
  cancels: Map<string, Trader>;
}

/**
 * Issue 19's "kill -9 at full load, many times": rounds of concurrent places (signed and not, one
 * in four crossing) and cancels of resting orders, each round ended by `kill -9` while requests
 * are in flight. After every restart, on the store of the run (PGlite on disk, or PostgreSQL):
 * every acknowledged order is there with at least the fills it was answered with, every
 * acknowledged cancel stays cancelled, the book is the open orders and the trades account for
 * every fill; after the last, the ledger audit (reservations equal open orders' needs, value
 * conserved) passes.
 */
describe('recovery: repeated kill -9 under concurrent orders and cancels', () => {
  const durable = useDurableStore('pmx-kills-', restartedInPlaceStore);

  it(`loses nothing acknowledged over ${ROUNDS} kills`, { timeout: 300_000 }, async () => {
    let server = await startProcessServer(durable.env);
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    const traders = await Promise.all([1, 2, 3].map(() => newTrader(server, { fund: '100000' })));
    const acknowledged: Acknowledged = { orders: new Map(), cancels: new Map() };

    for (let round = 0; round < ROUNDS; round++) {
      await loadUntilKilled(server, market, traders, acknowledged, 25 + 20 * round);
      server = await startProcessServer(durable.env, server.port);
      try {
        await expectAcknowledgedKept(acknowledged);
        const open = (await Promise.all(traders.map(openOrders))).flat();
        assert.deepEqual(await publishedBook(server, market.tokenId1), bookFromOrders(open, market.tokenId1), `round ${round}: the book is the open orders`);
        await expectTradesAccountForFills(server, market, traders);
      } catch (error) {
        await server.stop();
        throw error;
      }
    }
    await server.stop();
    // The ledger audit reads the store the last restart left (on PGlite no server may hold it):
    // reservations equal what the open orders and unsettled trades need, and value is conserved.
    expectBuiltAuditClean(durable.env);
    assert.ok(acknowledged.cancels.size > 0, 'some cancels were acknowledged before the kills');
  });
});

/**
 * Sends a round of places and cancels all at once and kills the server when `killAfter` answers
 * have arrived, with the rest still in flight. Records what was acknowledged.
 */
async function loadUntilKilled(server: ProcessServer, market: PublishedMarket, traders: Trader[], acknowledged: Acknowledged, killAfter: number): Promise<void> {
  const places = await Promise.all(
    Array.from({ length: PLACES_PER_ROUND }, async (_, i) => {
      const trader = traders[i % traders.length]!;
      // Token 1 bids at 0.30-0.49 and token 2 bids at 0.30-0.49 never cross; one in four token-2
      // bids at 0.60-0.69 crosses the token-1 bids (a MINT).
      const onToken1 = i % 2 === 0;
      const crossing = !onToken1 && i % 4 === 1;
      const price = ((crossing ? 60 : 30) + ((i * 7) % (crossing ? 10 : 20))) / 100;
      const body = await orderBody(server, trader, { tokenId: onToken1 ? market.tokenId1 : market.tokenId2, side: 'BUY', price: price.toFixed(2), size: String(1 + (i % 5)), signed: i % 3 === 0 });
      return { trader, body };
    }),
  );
  const resting = (await Promise.all(traders.map(async (trader) => (await openOrders(trader)).map((order) => ({ trader, id: order.id }))))).flat();
  const cancels = resting.filter((_, i) => i % 3 === 0);

  let answers = 0;
  let killed: Promise<void> | undefined;
  const answered = () => {
    answers += 1;
    if (answers === killAfter) killed = server.crash();
  };
  // Cancels go first, so that some are answered before the kill.
  const sent = [
    ...cancels.map(async ({ trader, id }) => {
      const response = await trader.call('POST', `/orders/${id}/cancel`).catch(() => undefined);
      if (response === undefined) return;
      answered();
      // A cancel may meet an order a crossing bid of this round filled: that is refused, not lost.
      if (response.status === 200) {
        assert.equal(response.body.status, 'CANCELLED');
        acknowledged.cancels.set(id, trader);
      } else assert.ok(response.status >= 400 && response.status < 500, `a refused cancel is a 4xx: ${response.status}`);
    }),
    ...places.map(async ({ trader, body }) => {
      const response = await trader.call('POST', '/orders', body).catch(() => undefined);
      if (response === undefined) return;
      answered();
      assert.equal(response.status, 200, `an answered order was acknowledged: ${JSON.stringify(response.body)}`);
      acknowledged.orders.set(response.body.id, { trader, matchedAmount: response.body.matchedAmount });
    }),
  ];
  await Promise.all(sent);
  await killed;
  assert.ok(killed, `the server was killed after ${killAfter} of ${sent.length} answers`);
}

async function expectAcknowledgedKept({ orders, cancels }: Acknowledged): Promise<void> {
  const kept = [...orders].map(async ([id, { trader, matchedAmount }]) => {
    const order = await trader.call('GET', `/orders/${id}`);
    assert.equal(order.status, 200, `acknowledged order ${id} is gone`);
    assert.ok(order.body.matchedAmount >= matchedAmount, `order ${id} lost fills: ${order.body.matchedAmount} < ${matchedAmount}`);
  });
  const cancelled = [...cancels].map(async ([id, trader]) => {
    const order = await trader.call('GET', `/orders/${id}`);
    assert.equal(order.body.status, 'CANCELLED', `order ${id} was answered CANCELLED`);
  });
  await Promise.all([...kept, ...cancelled]);
}

/** Every fill is one side of a trade: the orders' matched amounts are twice the trades' sizes. */
async function expectTradesAccountForFills(server: ProcessServer, market: PublishedMarket, traders: Trader[]): Promise<void> {
  const trades = (await get(server.api(`/trades?market=${market.id}&limit=500`))).body;
  assert.equal(trades.hasMore, false);
  const traded = trades.data.reduce((sum: number, trade: { size: string }) => sum + Math.round(Number(trade.size) * 1e6), 0);
  let matched = 0;
  for (const trader of traders) {
    for (const status of ['EXECUTING', 'EXECUTED', 'CANCELLED']) {
      const orders = (await trader.call('GET', `/orders/paginated?status=${status}&limit=100`)).body;
      assert.ok(orders.data.length < 100, 'one page holds them');
      for (const order of orders.data) matched += Math.round(order.matchedAmount * 1e6);
    }
  }
  assert.equal(matched, 2 * traded, 'matched amounts are twice the traded size');
}
