import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { exchangeInfo, hmacHeaders } from '../helpers/auth-client.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { request } from '../helpers/http.ts';
import { startTestServer } from '../helpers/server.ts';
import { newTrader, orderBody, placeOrder } from '../helpers/trader.ts';

describe('an engine whose tables refuse its journal', { skip: process.env.DATABASE_URL ? 'PostgreSQL has no journal: every batch is durable at its commit' : false }, () => {
  it('halts: reads answer 503 rather than miss an acknowledged order, no order is taken, and the node is not ready', async () => {
    const server = await startTestServer();
    try {
      const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
      const trader = await newTrader(server, { fund: '1000' });
      const resting = await placeOrder(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '5' });
      assert.equal((await trader.call('GET', `/orders/${resting.body.id}`)).status, 200, 'read once the tables took it');
      // Signed by hand from here: the test helpers read /exchange first, which the halted node refuses too.
      const info = await exchangeInfo(server);
      let stamp = info.serverTime;
      const call = (method: string, path: string, body?: unknown) => {
        const text = body === undefined ? '' : JSON.stringify(body);
        const headers = hmacHeaders(trader.creds, method, `/api/v1${path}`, text, { timestampMs: stamp--, prefix: info.headerPrefix });
        return request(method, server.api(path), { headers: { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { rawBody: text }) });
      };

      // The tables will refuse the next order of 7; the journal takes it (a journal batch writes no table).
      await sql`ALTER TABLE orders ADD CONSTRAINT refuse_seven CHECK (size_base_units <> 7000000) NOT VALID`.execute(server.ctx.store.db);
      const acknowledged = await call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '7', signed: false }));
      assert.equal(acknowledged.status, 200, 'acknowledged at the journal');

      // The read waits for a projection, which the tables refuse, and again when the engine rebuilds: it halts.
      for (const path of [`/orders/${acknowledged.body.id}`, `/orders/${acknowledged.body.id}`, '/account/balance']) {
        const read = await call('GET', path);
        assert.deepEqual([read.status, read.body.code], [503, 'SERVICE_UNAVAILABLE'], `GET ${path} is refused, not answered without the order`);
      }
      const next = await call('POST', '/orders', await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price: '0.10', size: '1', signed: false }));
      assert.deepEqual([next.status, next.body.code], [503, 'SERVICE_UNAVAILABLE'], 'the halted engine takes no order');
      const ready = await request('GET', `${server.url}/readyz`);
      assert.deepEqual([ready.status, ready.body.status], [503, 'not-ready'], 'a supervisor sees the node must restart');
    } finally {
      await server.close();
    }
  });
});
