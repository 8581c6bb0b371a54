import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { get } from '../helpers/http.ts';
import { serverWithMarket } from '../helpers/market-server.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';

/**
 * Reads wait for the tables to hold what the journal made durable (src/api/journal-reads.ts,
 * EXTENSIONS.md section 12); a read of no engine data does not. The projection is held back by a
 * lock another connection keeps on `orders`, which PostgreSQL alone can take beside the server's.
 */
describe('reads while the tables are behind the journal', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL): a second connection to hold a lock' }, () => {
  const world = serverWithMarket();

  it('GET /exchange (clients sign with its serverTime), sign-in, API keys and the account answer at once; a read of market data waits for the tables', async () => {
    const { server, market } = world;
    const trader = await newTrader(server, { fund: '10' });
    const locker = new pg.Client({ connectionString: server.ctx.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
      // Acknowledged once its journal record is durable; its projection into `orders` waits for the lock.
      assert.equal((await placeOrder(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '5' })).status, 200);
      let bookAnswered = false;
      const book = get(server.api(`/order-book/book?token_id=${market.tokenId1}`)).finally(() => (bookAnswered = true));
      const exchange = await get(server.api('/exchange'));
      assert.equal(exchange.status, 200);
      assert.equal(typeof exchange.body.serverTime, 'number');
      // Identity reads no engine data either: a newcomer signs in, makes a key and reads its account.
      const newcomer = await newTrader(server);
      assert.equal((await newcomer.call('GET', '/account')).status, 200);
      assert.equal((await newcomer.call('GET', '/auth/api-keys')).status, 200);
      assert.equal(bookAnswered, false, 'the book waits for the tables');
      await locker.query('COMMIT');
      const { status, body } = await book;
      assert.equal(status, 200);
      assert.equal(body.bids.length, 1, 'and then shows the acknowledged order');
    } finally {
      await locker.end();
    }
  });
});
