import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { restartedInPlaceStore, useDurableStore } from '../helpers/database.ts';
import { spawnProcessServer, startProcessServer } from '../helpers/process-server.ts';
import { seedOpenOrders } from '../helpers/seed-open-orders.ts';
import { newTrader, orderBody, placeOrder } from '../helpers/trader.ts';

/** Open orders the restarted engine must put back before it serves anything. */
const OPEN_ORDERS = 20_000;

/**
 * A restart serves nothing before the engine's state is whole (src/engine/README.md "Recovery and takeover"):
 * watched from the first moment the restarted process listens, /readyz is 503, the book is never
 * shown in part, and an order that would cross it is refused, not matched against half a book.
 */
describe('a restart with a large book serves nothing before its state is whole', () => {
  const durable = useDurableStore('pmx-whole-', restartedInPlaceStore);

  it('answers 503 to /readyz, the book and orders until whole, then the whole book', { timeout: 300_000 }, async () => {
    let server = await startProcessServer(durable.env);
    const market = (await createPublishedEvent(server)).markets[0]!;
    const maker = await newTrader(server, { fund: '1000' });
    const taker = await newTrader(server, { fund: '1000' });
    const split = await taker.call('POST', `/markets/${market.id}/split`, { amount: '10' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    const template = await placeOrder(server, maker, { tokenId: market.tokenId1, side: 'BUY', price: '0.01', size: '10' });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    await server.stop();
    await seedOpenOrders(durable.env, template.body.id, OPEN_ORDERS);
    server = await startProcessServer(durable.env, server.port);
    const bookPath = server.api(`/order-book/book?token_id=${market.tokenId1}`);
    type Book = { bids: { size: string }[] };
    const resting = (book: Book) => book.bids.reduce((sum, level) => sum + Number(level.size), 0);
    const whole = (await (await fetch(bookPath)).json()) as Book;
    assert.equal(resting(whole), (OPEN_ORDERS + 1) * 10, 'the first restart read every seeded order');
    const crossing = await orderBody(server, taker, { tokenId: market.tokenId1, side: 'SELL', price: '0.01', size: '1', orderType: 'FAK' });
    await server.crash();

    const restarted = await spawnProcessServer(durable.env, server.port);
    try {
      const seen = { notReady: 0, booksWhileNotReady: 0, ordersWhileNotReady: 0 };
      let filled = 0;
      for (;;) {
        const ready = await fetch(`${restarted.url}/readyz`).then((r) => r.status, () => 0);
        if (ready === 200) break;
        seen.notReady += 1;
        const book = await fetch(bookPath).then(async (r) => ({ status: r.status, body: (await r.json()) as Book }), () => undefined);
        if (book?.status === 200) {
          seen.booksWhileNotReady += 1;
          assert.equal(resting(book.body), resting(whole), 'a book answered while starting is the whole book');
        } else if (book) {
          assert.equal(book.status, 503, `the book while starting: ${JSON.stringify(book.body)}`);
        }
        const order = await taker.call('POST', '/orders', crossing).catch(() => undefined);
        if (order?.status === 200) filled += order.body.matchedAmount;
        else if (order) assert.equal(order.status, 503, `an order while starting: ${JSON.stringify(order.body)}`);
        if (order?.status === 200) seen.ordersWhileNotReady += 1;
      }
      await restarted.ready;
      assert.ok(seen.notReady > 0, 'the restart was watched before it was ready');
      assert.equal(seen.ordersWhileNotReady <= 1, true, 'at most the order sent as it became ready was taken');
      const after = (await (await fetch(bookPath)).json()) as Book;
      assert.equal(resting(after), resting(whole) - filled, 'the book is whole (less what an order taken at the end filled)');
    } finally {
      await restarted.stop();
    }
  });
});
